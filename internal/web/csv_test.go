package web_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The CSV of the dashboard's table carries the figures of the JSON pool, field by field.
func TestPoolCSV(t *testing.T) {
	s := mustServer(t)
	for _, q := range []string{"", "?method=webster", "?as_of=2026-07-01"} {
		res, body := get(t, s, "/pool/2026.csv"+q)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d: %s", q, res.StatusCode, body)
		}
		if ct := res.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", q, ct)
		}
		if cd := res.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="pool-2026-`) || !strings.HasSuffix(cd, `.csv"`) {
			t.Errorf("%s: Content-Disposition %q", q, cd)
		}
		rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		jres, jbody := get(t, s, "/api/v1/cycles/2026/pool"+q)
		if jres.StatusCode != http.StatusOK {
			t.Fatalf("%s: JSON status %d", q, jres.StatusCode)
		}
		var p struct {
			States []map[string]any `json:"states"`
		}
		dec := json.NewDecoder(strings.NewReader(jbody))
		dec.UseNumber()
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(p.States)+1 || len(p.States) != 26 {
			t.Fatalf("%s: %d CSV rows for %d states", q, len(rows), len(p.States))
		}
		header := rows[0]
		for i, st := range p.States {
			for j, col := range header {
				if got, want := rows[i+1][j], jsonCell(st[col]); got != want {
					t.Errorf("%s: %s %s = %q, JSON %q", q, st["state"], col, got, want)
				}
			}
		}
	}
}

// jsonCell is a JSON value as the CSV writes it: null empty, a list space-separated.
func jsonCell(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, fmt.Sprint(e))
		}
		return strings.Join(out, " ")
	}
	return fmt.Sprint(v)
}

func TestPoolCSVBadInput(t *testing.T) {
	s := mustServer(t)
	for target, want := range map[string]int{
		"/pool/1999.csv":                  http.StatusNotFound,
		"/pool/abc.csv":                   http.StatusNotFound,
		"/pool/2026.csv?as_of=2026-13-45": http.StatusBadRequest,
		"/pool/2026.csv?method=nope":      http.StatusBadRequest,
	} {
		if res, body := get(t, s, target); res.StatusCode != want {
			t.Errorf("%s: status %d, want %d: %s", target, res.StatusCode, want, body)
		}
	}
}

func TestDashboardLinksCSV(t *testing.T) {
	_, body := get(t, mustServer(t), "/pool/2026?method=webster")
	if !strings.Contains(body, `href="/pool/2026.csv?method=webster&amp;mode=share" download>CSV</a>`) {
		t.Error("the dashboard links no CSV of its view")
	}
}

// suffixRoutes maps a documented operation whose path has a suffix after a wildcard,
// which a ServeMux pattern cannot spell, to the pattern that serves it.
var suffixRoutes = map[string]string{
	"GET /pool/{year}.csv": "GET /pool/{year}",
}
