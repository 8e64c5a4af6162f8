package arrival_test

import (
	"strings"
	"testing"

	"solidarity"
	"solidarity/arrival"
)

// TestParseBounds: a list built to exhaust the parser is refused before decoding,
// naming the file, the line and the bound (issue 12).
func TestParseBounds(t *testing.T) {
	tests := map[string]string{
		"JSON nested 9000 deep":  `{"persons": [` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + `]}`,
		"JSON number of 1 MiB":   `{"persons": [{"ref": "P1", "assessed_age": 1` + strings.Repeat("0", 1<<20) + `}]}`,
		"CSV line of 5M commas":  "ref,name,sex,assessed_age\n" + strings.Repeat(",", 5<<20) + "\n",
		"CSV field of 1 MiB":     "ref,name,sex,assessed_age\nP1,\"" + strings.Repeat("a", 1<<20) + "\",M,30\n",
		"CSV header block first": "# vessel: X\n# port: Y\nref,name" + strings.Repeat(",x", 200) + "\n",
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := arrival.ParseList("list", strings.NewReader(src))
			if solidarity.ErrorCode(err) != solidarity.EINVALID || !strings.Contains(err.Error(), "limit") || !strings.Contains(err.Error(), "list:") {
				t.Fatalf("ParseList = %.200v, want EINVALID naming the file, line and limit", err)
			}
		})
	}
	_, err := arrival.ParseList("list", strings.NewReader("# vessel: X\n# port: Y\nref,name"+strings.Repeat(",x", 200)+"\n"))
	if !strings.Contains(err.Error(), "list:3:") {
		t.Errorf("error %v: want line 3, after the header block", err)
	}
}
