package web

import (
	"cmp"
	"fmt"
	"html/template"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/internal/i18n"
	"solidarity/internal/report"
	"solidarity/internal/web/svgchart"
)

// The dashboard's table: its columns, sorted on the server by any of them
// (?sort=&dir=), the status tags' meanings, and the numbers in the page's locale.

// column is a column of the dashboard's table. value is its figure for sorting; false
// when unknown (sorted last whatever the direction).
type column struct {
	Key, Label, Title string
	Live              bool // only with the ledger's balances
	value             func(st report.PoolState, b *report.StateBalance) (float64, bool)
}

func numVal(n *report.Num) (float64, bool) {
	if n == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(*n), 64)
	return v, err == nil
}

func known(v float64) (float64, bool) { return v, true }

// columns are the table's columns in order; the first, the state, sorts by name.
var columns = []column{
	{Key: "state", Label: msg("State")},
	{Key: "share", Label: msg("Share %%"), Title: msg("Key share, Art. 66 and Annex I"), value: func(st report.PoolState, _ *report.StateBalance) (float64, bool) { return numVal(st.SharePercent) }},
	{Key: "quota", Label: msg("Quota"), value: func(st report.PoolState, _ *report.StateBalance) (float64, bool) { return numVal(st.Quota) }},
	{Key: "fair", Label: msg("Fair share"), Title: msg("Relocations, Art. 57(1)"), value: func(st report.PoolState, _ *report.StateBalance) (float64, bool) { return known(float64(st.FairShare)) }},
	{Key: "fair_eur", Label: msg("Fair share EUR"), value: func(st report.PoolState, _ *report.StateBalance) (float64, bool) {
		n := st.FairShareEUR
		return numVal(&n)
	}},
	{Key: "status", Label: msg("Status"), Title: msg("Art. 11 decision; Arts. 58–59")},
	{Key: "deducted", Label: msg("Deducted"), Title: msg("Arts. 61–62"), value: func(st report.PoolState, _ *report.StateBalance) (float64, bool) { return numVal(st.Deducted) }},
	{Key: "obligation", Label: msg("Obligation"), value: func(st report.PoolState, _ *report.StateBalance) (float64, bool) { return numVal(st.Obligation) }},
	{Key: "pledged", Label: msg("Pledged"), value: func(st report.PoolState, _ *report.StateBalance) (float64, bool) { return numVal(st.PledgedUnits) }},
	{Key: "coverage", Label: msg("Coverage"), value: func(st report.PoolState, _ *report.StateBalance) (float64, bool) { return numVal(st.Coverage) }},
	{Key: "shortfall", Label: msg("Shortfall"), value: func(st report.PoolState, _ *report.StateBalance) (float64, bool) { return numVal(st.Shortfall) }},
	{Key: "offsets", Label: msg("Art. 63(2)"), Title: msg("Art. 63(2): may offer responsibility offsets")},
	{Key: "delivered", Label: msg("Delivered"), Title: msg("Relocation-equivalents delivered, from the ledger"), Live: true, value: func(_ report.PoolState, b *report.StateBalance) (float64, bool) {
		if b == nil {
			return 0, false
		}
		n := b.Delivered.Units
		return numVal(&n)
	}},
	{Key: "outstanding", Label: msg("Outstanding"), Title: msg("Obligation less delivered"), Live: true, value: func(_ report.PoolState, b *report.StateBalance) (float64, bool) {
		if b == nil {
			return 0, false
		}
		return numVal(b.Outstanding)
	}},
	{Key: "pace", Label: msg("Pace"), Title: msg("Art. 60(3): non-financial delivered against expected by now"), Live: true, value: func(_ report.PoolState, b *report.StateBalance) (float64, bool) {
		if b == nil || !b.Pace.Known {
			return 0, false
		}
		d, e := b.Pace.NonFinancialDelivered, b.Pace.ExpectedByNow
		dv, _ := numVal(&d)
		ev, _ := numVal(&e)
		return dv - ev, true // ahead (+) or behind (−) the expected figure
	}},
}

// sortKeys lists the keys for the error of an unknown one.
func sortKeys() string {
	var ks []string
	for _, c := range columns {
		ks = append(ks, c.Key)
	}
	return strings.Join(ks, ", ")
}

// checkSort validates ?sort= and ?dir= (bounded: a known key, asc or desc).
func checkSort(key, dir string) error {
	if key != "" && !slices.ContainsFunc(columns, func(c column) bool { return c.Key == key }) {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "sort", Message: fmt.Sprintf("unknown sort column %q (want one of %s)", key, sortKeys())}
	}
	switch dir {
	case "", "asc", "desc":
		return nil
	}
	return &solidarity.Error{Code: solidarity.EINVALID, Field: "dir", Message: fmt.Sprintf("unknown sort direction %q (want asc or desc)", dir)}
}

// sortStates returns the rows in the view's order: the pool's (protocol) order when
// no column is chosen; ties keep it.
func sortStates(states []report.PoolState, l *live, v view) []report.PoolState {
	out := slices.Clone(states)
	if v.Sort == "" {
		return out
	}
	i := slices.IndexFunc(columns, func(c column) bool { return c.Key == v.Sort })
	c := columns[i]
	desc := v.Dir == "desc"
	bal := func(st report.PoolState) *report.StateBalance {
		if l == nil {
			return nil
		}
		return l.State(st.State)
	}
	slices.SortStableFunc(out, func(a, b report.PoolState) int {
		var r int
		switch c.Key {
		case "state":
			r = strings.Compare(a.Name, b.Name)
		case "status":
			r = strings.Compare(strings.Join(a.Statuses, " "), strings.Join(b.Statuses, " "))
		case "offsets":
			r = strings.Compare(a.MayOfferOffsets, b.MayOfferOffsets)
		default:
			av, aok := c.value(a, bal(a))
			bv, bok := c.value(b, bal(b))
			switch {
			case aok != bok: // unknown last, in either direction
				if aok {
					return -1
				}
				return 1
			case !aok:
				return 0
			}
			r = cmp.Compare(av, bv)
		}
		if desc {
			r = -r
		}
		return r
	})
	return out
}

// headerCell is a column's header: a link that sorts by it (the other direction when
// it is the current sort), and aria-sort on the current one.
type headerCell struct {
	Key, Label, Title, Href, AriaSort, Arrow string
}

func headerCells(v view, withLive bool) []headerCell {
	var out []headerCell
	for _, c := range columns {
		if c.Live && !withLive {
			continue
		}
		h := headerCell{Key: c.Key, Label: c.Label, Title: c.Title}
		dir := "asc"
		if v.Sort == c.Key {
			if v.Dir == "desc" {
				h.AriaSort, h.Arrow = "descending", "▼"
			} else {
				h.AriaSort, h.Arrow, dir = "ascending", "▲", "desc"
			}
		}
		nv := v
		nv.Sort, nv.Dir = c.Key, dir
		h.Href = nv.Pool() + "#pool-table"
		out = append(out, h)
	}
	return out
}

// statusMeanings are the status tags with their meaning and article, for the legend
// under the table (the tags are report.statuses' words).
var statusMeanings = []struct{ Tag, Meaning string }{
	{"under-pressure", msg("under migratory pressure (Art. 11(a) decision)")},
	{"at-risk", msg("at risk of migratory pressure (Art. 11(b) decision)")},
	{"significant-situation", msg("facing a significant migratory situation (Art. 11(c) decision)")},
	{"benefitting", msg("benefitting from the pool: keeps its fair share but does not implement it (Arts. 58–59)")},
}

func statusMeaning(tag string) string {
	for _, s := range statusMeanings {
		if s.Tag == tag {
			return s.Meaning
		}
	}
	return ""
}

var urlRE = regexp.MustCompile(`https?://[^\s;,<>"]+`)

// sourceLinks writes a source's text with its web addresses as links; the text is
// escaped, and only http(s) addresses become links.
func sourceLinks(s string) template.HTML {
	var b strings.Builder
	last := 0
	for _, m := range urlRE.FindAllStringIndex(s, -1) {
		b.WriteString(template.HTMLEscapeString(s[last:m[0]]))
		u := strings.TrimRight(s[m[0]:m[1]], ".)")
		b.WriteString(`<a href="` + template.HTMLEscapeString(u) + `" rel="noopener">` + template.HTMLEscapeString(u) + `</a>`)
		last = m[0] + len(u)
	}
	b.WriteString(template.HTMLEscapeString(s[last:]))
	return template.HTML(b.String()) // escaped above
}

// numText is a figure for the locale: a known number with up to places decimals
// (whole numbers without them, so that 4558.00 and 4,558 never stand side by side),
// "unknown" for nil.
func numText(l *i18n.Locale, n any, places int) string {
	var s string
	switch n := n.(type) {
	case *report.Num:
		if n == nil {
			return l.T("unknown")
		}
		s = string(*n)
	case report.Num:
		s = string(n)
	case int64:
		return l.Int(n)
	case int:
		return l.Int(int64(n))
	case *big.Rat:
		if n == nil {
			return l.T("unknown")
		}
		s = n.FloatString(places)
	default:
		return fmt.Sprint(n)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == float64(int64(f)) {
		return l.Dec(s, 0)
	}
	return l.Dec(s, places)
}

// eurText is an amount in euro for the locale, with cents.
func eurText(l *i18n.Locale, n any) string {
	switch v := n.(type) {
	case *report.Num:
		if v == nil {
			return l.T("unknown")
		}
		return l.T("EUR %s", l.Dec(string(*v), 2))
	case report.Num:
		return l.T("EUR %s", l.Dec(string(v), 2))
	}
	return fmt.Sprint(n)
}

// pctText is a fraction as a percentage for the locale; "—" when unknown.
func pctText(l *i18n.Locale, n *report.Num) string {
	v, ok := numVal(n)
	if !ok {
		return "—"
	}
	return l.Pct(v)
}

// pledgeTypesChart draws the pledges of every state by type (Art. 56(2), Art. 63) in
// relocation-equivalents, the euro measures at the cycle's ratio (Art. 12(2)).
func pledgeTypesChart(l *i18n.Locale, p *report.Pool, states []report.PoolState) template.HTML {
	ratio, _ := strconv.ParseFloat(string(p.Cycle.EURPerRelocation), 64)
	if ratio <= 0 {
		ratio = 1
	}
	keys := []string{l.T("relocations of applicants"), l.T("relocations of beneficiaries"), l.T("offsets"), l.T("financial contributions"), l.T("alternative measures")}
	c := svgchart.Stacked{ID: "pledge-types-chart", Keys: keys,
		Colours: []string{"#1b9e77", "#66a61e", "#7570b3", "#d95f02", "#e7298a"},
		Title:   l.T("Pledges by type and state"),
		Desc:    l.T("Stacked bars of each state's known pledges in relocation-equivalents, euro measures at the cycle's ratio; the table below gives the figures."),
		Format:  func(v float64) string { return l.Float(v, 0) }, EmptyText: l.T("No pledge reported.")}
	for _, st := range states {
		pl := st.Pledged
		if !st.PledgeKnown || pl == nil {
			continue
		}
		fin, _ := strconv.ParseFloat(string(pl.FinancialEUR), 64)
		alt, _ := strconv.ParseFloat(string(pl.AlternativeEUR), 64)
		vals := []float64{float64(pl.RelocationApplicants), float64(pl.RelocationBeneficiaries), float64(pl.Offsets), fin / ratio, alt / ratio}
		if vals[0]+vals[1]+vals[2]+vals[3]+vals[4] == 0 {
			continue
		}
		b := svgchart.Bar{Label: st.State}
		for i, v := range vals {
			b.Segments = append(b.Segments, svgchart.Segment{Label: keys[i], Value: v})
		}
		c.Bars = append(c.Bars, b)
	}
	return c.SVG()
}

// factView is a fact as the "fact" template shows it: the certainty tag with its
// meaning, and the source with its links.
type factView struct{ Certainty, Title, Source string }

func factOf(l *i18n.Locale, f report.Fact) factView {
	// One meaning per tag on every page: tagText, as the case pages say it.
	return factView{Certainty: f.Certainty, Title: l.T(tagText(solidarity.Certainty(f.Certainty))), Source: f.Source}
}

func columnLabel(key string) string {
	for _, c := range columns {
		if c.Key == key {
			return c.Label
		}
	}
	return key
}

func init() {
	// The status tags, Art. 63(2)'s answers and the other words of the pool shown as
	// they are in the JSON are messages of the page.
	messageSources = append(messageSources, func() []string {
		out := []string{"yes", "no", "unknown"}
		for _, s := range statusMeanings {
			out = append(out, s.Tag)
		}
		// The map's pledge legend (measure labels), the state page's pledge types and
		// offset entry types.
		for _, m := range solidarity.Measures() {
			out = append(out, m.Label, string(m.Pledge))
		}
		return append(out, string(solidarity.OffsetRequested), string(solidarity.OffsetOffered), string(solidarity.OffsetReplied))
	})
}

// factOfAny is factOf for the template, which may hold a fact or a pointer to one.
func factOfAny(l *i18n.Locale, f any) factView {
	switch f := f.(type) {
	case report.Fact:
		return factOf(l, f)
	case *report.Fact:
		if f != nil {
			return factOf(l, *f)
		}
	}
	return factView{}
}
