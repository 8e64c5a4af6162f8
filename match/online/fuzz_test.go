package online_test

import (
	"bytes"
	"testing"
	"time"

	"solidarity/match"
	"solidarity/match/online"
)

// FuzzFromProblem: any problem file the parser accepts either gives a year that
// validates (dated or not) or an error; never a panic, never an invalid year.
func FuzzFromProblem(f *testing.F) {
	f.Add([]byte(`{"dimensions":["persons"],"families":[{"id":"a","needs":[2],"arrival":"2026-06-12"},{"id":"b","needs":[1],"arrival":"2026-07-20"}],
"places":[{"id":"p","state":"DE","capacity":[2]}],"revisions":[{"place":"p","from":"2026-07-01","capacity":[4]}],
"pairs":[{"family":"a","place":"p","links":1},{"family":"b","place":"p","links":0.5}]}`), uint8(7))
	f.Add([]byte(`{"dimensions":["persons"],"families":[{"id":"a","needs":[1]}],"places":[{"id":"p","state":"FR","capacity":[1]}],"pairs":[]}`), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, days uint8) {
		pr, err := match.ParseProblem("fuzz.json", bytes.NewReader(data))
		if err != nil {
			return
		}
		y, _, err := online.FromProblem(pr, time.Duration(days)*24*time.Hour)
		if err != nil {
			return
		}
		if y.Batch == nil {
			y = y.Shuffled(3, 1)
		}
		if err := y.Validate(); err != nil {
			t.Fatalf("FromProblem gave an invalid year: %v", err)
		}
	})
}
