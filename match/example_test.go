package match_test

import (
	"context"
	"fmt"
	"strings"

	"solidarity/match"
)

// A problem file with two families and two places in one dimension (persons),
// compiled to a model, solved, and read back by ID: F1 takes the place it scores
// best at, and F2, which would score more there too, does not fit beside it.
func Example() {
	const problem = `{
	  "dimensions": ["persons"],
	  "families": [
	    {"id": "F1", "needs": [3]},
	    {"id": "F2", "needs": [2]}
	  ],
	  "places": [
	    {"id": "DE-01", "state": "DE", "capacity": [3]},
	    {"id": "FR-01", "state": "FR", "capacity": [4]}
	  ],
	  "pairs": [
	    {"family": "F1", "place": "DE-01", "links": 1},
	    {"family": "F1", "place": "FR-01", "links": 0.5},
	    {"family": "F2", "place": "DE-01", "links": 0.8},
	    {"family": "F2", "place": "FR-01", "links": 0.6}
	  ]
	}`
	pr, err := match.ParseProblem("example.json", strings.NewReader(problem))
	if err != nil {
		panic(err)
	}
	m, idx, err := pr.Compile()
	if err != nil {
		panic(err)
	}
	sol, err := match.Solve(context.Background(), m, match.Options{})
	if err != nil {
		panic(err)
	}
	res := idx.Result(sol)
	fmt.Printf("%s, value %.1f\n", res.Status, res.Value)
	for _, p := range res.Placements {
		fmt.Printf("%s → %s (%s), score %.1f\n", p.Family, p.Place, p.State, p.Score)
	}
	// Output:
	// optimal, value 1.6
	// F1 → DE-01 (DE), score 1.0
	// F2 → FR-01 (FR), score 0.6
}
