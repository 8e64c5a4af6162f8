package web_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"solidarity/internal/app"
)

// TestDiciottiFunnel: every arrival page of the Diciotti demonstration draws its
// case funnel as an image named by its title and description, with one bar per row
// of the table beside it; the table's first stage is every case of the arrival (the
// counts by state add up to it), no stage exceeds the one it narrows, and at least
// as many cases reached relocation as the arrival has allocated.
func TestDiciottiFunnel(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 190 cases")
	}
	f := newFixture(t, fixtureOpts{cases: true})
	f.svc.Now = func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	ctx := context.Background()
	if _, err := app.Seed(ctx, f.svc, false); err != nil {
		t.Fatal(err)
	}
	if err := app.SeedDiciotti(ctx, f.svc, f.cases); err != nil {
		t.Fatal(err)
	}
	_, body := f.do(req{method: "GET", path: "/arrivals", as: "coord"})
	num := func(s string) int {
		n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		if err != nil {
			t.Fatalf("not a count: %q", s)
		}
		return n
	}
	stageRE := regexp.MustCompile(`<tr data-stage="([a-z]+)"><th scope="row"[^>]*>[^<]+</th><td class="n">([0-9,]+)</td>`)
	countRE := regexp.MustCompile(`<td class="n"><a href="[^"]*"[^>]*>([0-9,]+)</a></td></tr>`)
	allocRE := regexp.MustCompile(`<td class="allocated">([0-9]+)</td>`)
	relocated, arrivals := 0, 0
	for _, m := range regexp.MustCompile(`href="/arrivals/(ARR-[0-9A-Z-]+)"`).FindAllStringSubmatch(body, -1) {
		if m[1] == string(f.arrival) {
			continue
		}
		arrivals++
		_, page := f.do(req{method: "GET", path: "/arrivals/" + m[1], as: "coord"})
		svg := regexp.MustCompile(`(?s)<svg class="funnel" role="img" aria-labelledby="funnel-title funnel-desc".*?</svg>`).FindString(page)
		if svg == "" || !strings.Contains(svg, `<title id="funnel-title">`) || !strings.Contains(svg, `<desc id="funnel-desc">`) {
			t.Fatalf("arrival %s: no funnel image named by its title and description", m[1])
		}
		if strings.Contains(svg, "<a ") || strings.Contains(svg, "tabindex") {
			t.Errorf("arrival %s: the funnel image holds something focusable", m[1])
		}
		n := map[string]int{}
		rows := stageRE.FindAllStringSubmatch(page, -1)
		for _, r := range rows {
			n[r[1]] = num(r[2])
		}
		if bars := strings.Count(svg, "<rect "); bars != len(rows) || len(rows) != 8 {
			t.Errorf("arrival %s: %d bars, %d table rows; want 8 of each", m[1], bars, len(rows))
		}
		total := 0
		for _, c := range countRE.FindAllStringSubmatch(page, -1) {
			total += num(c[1])
		}
		if n["registered"] != total || total == 0 {
			t.Errorf("arrival %s: %d registered in the funnel, %d cases by state", m[1], n["registered"], total)
		}
		for _, k := range []string{"border", "regular", "relocation", "transfer", "return", "decided"} {
			if n[k] > n["screened"] {
				t.Errorf("arrival %s: %s %d > screened %d", m[1], k, n[k], n["screened"])
			}
		}
		if n["screened"] > n["registered"] || n["border"]+n["regular"] > n["screened"] {
			t.Errorf("arrival %s: funnel %v", m[1], n)
		}
		alloc := 0
		for _, a := range allocRE.FindAllStringSubmatch(page, -1) {
			alloc += num(a[1])
		}
		if n["relocation"] < alloc {
			t.Errorf("arrival %s: %d cases reached relocation, %d allocated", m[1], n["relocation"], alloc)
		}
		relocated += n["relocation"]
	}
	if arrivals != 4 || relocated == 0 {
		t.Errorf("%d Diciotti arrivals, %d cases reached relocation in all", arrivals, relocated)
	}
}
