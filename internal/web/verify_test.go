package web_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"solidarity/internal/ledgersvc"
	"solidarity/internal/web"
	"solidarity/ledger"
)

// The contract tests validate the public download as text: one JSON object a line.
func init() {
	openapi3filter.RegisterBodyDecoder(web.PublicLedgerType, openapi3filter.PlainBodyDecoder)
}

// TestPublicVerification: the public summary is 200 for anyone and says what the
// auditor's full verification says; the download verifies offline to the same head,
// breaks on a changed byte or a changed redacted hash, and holds no person.
func TestPublicVerification(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	res, body := f.do(req{method: "GET", path: "/api/v1/ledger/verify", as: "audit"})
	if res.StatusCode != 200 {
		t.Fatalf("auditor: %d %s", res.StatusCode, body)
	}
	var full ledger.Verification
	if err := json.Unmarshal([]byte(body), &full); err != nil || !full.OK {
		t.Fatalf("auditor: %v %s", err, body)
	}
	for _, as := range []string{"", "de"} {
		res, body := f.do(req{method: "GET", path: "/api/v1/ledger/verify", as: as})
		if res.StatusCode != 200 {
			t.Fatalf("as %q: %d %s", as, res.StatusCode, body)
		}
		var pub ledgersvc.PublicVerification
		if err := json.Unmarshal([]byte(body), &pub); err != nil {
			t.Fatal(err)
		}
		if !pub.OK || !pub.ChainOK || !pub.TotalsOK || pub.Entries != full.Entries || pub.HeadSeq != full.Entries ||
			pub.Head != full.Head || !pub.Verified.Equal(full.Verified) || pub.Download != "/api/v1/ledger/public.jsonl" {
			t.Fatalf("as %q: %+v, auditor %+v", as, pub, full)
		}
		if strings.Contains(body, `"problem"`) || strings.Contains(body, `"bad_totals"`) {
			t.Errorf("the public summary has the full verification's fields: %s", body)
		}
	}

	res, d := f.do(req{method: "GET", path: "/api/v1/ledger/public.jsonl"})
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != web.PublicLedgerType {
		t.Fatalf("download: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), d)
	}
	v, err := ledger.VerifyPublic(strings.NewReader(d))
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK || v.Entries != full.Entries || v.Head != full.Head || v.Linked == 0 || v.Recomputed == 0 {
		t.Fatalf("offline %+v, auditor %+v", *v, full)
	}
	for _, name := range seedNames {
		if strings.Contains(d, name) {
			t.Errorf("the download names %q", name)
		}
	}
	for _, personal := range []string{"1990-03-12", "1988-01-30", "Test Star", "P001"} {
		if strings.Contains(d, personal) {
			t.Errorf("the download holds %q", personal)
		}
	}

	lines := strings.SplitAfter(d, "\n")
	find := func(redacted bool) int {
		for i, l := range lines[:len(lines)-2] { // not the last: a later line links to it
			if strings.Contains(l, `"redacted":true`) == redacted && i > 0 {
				return i
			}
		}
		t.Fatal("no such line")
		return 0
	}
	tampered := func(i int, edit func(string) string) *ledger.PublicVerification {
		ls := append([]string(nil), lines...)
		ls[i] = edit(ls[i])
		if ls[i] == lines[i] {
			t.Fatalf("line %d unchanged", i+1)
		}
		v, err := ledger.VerifyPublic(strings.NewReader(strings.Join(ls, "")))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// One byte of a public entry: its own hash no longer matches.
	i := find(false)
	amount := regexp.MustCompile(`"(eur_cents|relocations|applications)":\d`)
	v = tampered(i, func(l string) string {
		loc := amount.FindStringIndex(l)
		if loc == nil {
			t.Fatalf("no amount on line %d: %s", i+1, l)
		}
		b := []byte(l)
		b[loc[1]-1] = '0' + (b[loc[1]-1]-'0'+1)%10
		return string(b)
	})
	if v.OK || v.BadLine != i+1 || v.BadSeq != int64(i+1) || !strings.Contains(v.Problem, "content does not match") {
		t.Fatalf("changed public entry: %+v", *v)
	}
	// A redacted entry's hash: the next entry's link breaks.
	i = find(true)
	hash := regexp.MustCompile(`"hash":"[0-9a-f]`)
	v = tampered(i, func(l string) string {
		return hash.ReplaceAllStringFunc(l, func(m string) string {
			if strings.HasSuffix(m, "0") {
				return m[:len(m)-1] + "1"
			}
			return m[:len(m)-1] + "0"
		})
	})
	if v.OK || v.BadLine != i+2 || v.BadSeq != int64(i+2) || !strings.Contains(v.Problem, "prev_hash") {
		t.Fatalf("changed redacted hash: %+v", *v)
	}
}

// The download is bounded by the request's budget: out of time, it is 503, never a
// 200 that could pass for the whole ledger.
func TestPublicLedgerBudget(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true, options: []web.Option{web.WithRequestBudget(time.Nanosecond)}})
	if res, body := f.do(req{method: "GET", path: "/api/v1/ledger/public.jsonl"}); res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
}
