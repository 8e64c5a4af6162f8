package web_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"solidarity"
)

// Issue 12 §2 through HTTP: any sequence of API writes — pledges and deliveries of any
// amount, huge ones included, with or without over_delivery — is answered 201 or 4xx,
// never 5xx; after every write each read (balances, the pool page, a state page, the
// verification) answers 200, and the delivered totals are the sum of the accepted
// deliveries. Before the fix one delivery of 9223372036854775807 after one relocation
// passed the pledge check and left every later read of the cycle answering 500.
//
// The runs share one server: each run's writes continue the ledger of the runs before.
func TestAPIWritesKeepReadsAnswering(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	delivered := func(rt *rapid.T) (int64, string) {
		_, b := f.do(req{method: "GET", path: "/api/v1/ledger/cycles/2027/balances"})
		var bal struct {
			Delivered struct {
				Relocations int64       `json:"relocations"`
				Payments    json.Number `json:"payments_eur"`
			} `json:"delivered_total"`
		}
		if err := json.Unmarshal([]byte(b), &bal); err != nil {
			rt.Fatal(err)
		}
		return bal.Delivered.Relocations, string(bal.Delivered.Payments)
	}
	rapid.Check(t, func(rt *rapid.T) {
		reloc0, pay0 := delivered(rt)
		pay0r, _ := new(big.Rat).SetString(pay0)
		amount := rapid.OneOf(rapid.Int64Range(1, 100), rapid.Int64Range(-1, solidarity.MaxPersons+1),
			rapid.SampledFrom([]int64{1<<63 - 1, int64(solidarity.MaxCents), int64(solidarity.MaxCents) + 1, 1_000_000_000_000_000_001}))
		sum := map[string]*big.Int{"relocations": big.NewInt(reloc0), "payments": new(big.Int).Quo(new(big.Int).Mul(pay0r.Num(), big.NewInt(100)), pay0r.Denom())}
		for range rapid.IntRange(1, 5).Draw(rt, "writes") {
			n := amount.Draw(rt, "amount")
			var path, body, kind string
			switch rapid.IntRange(0, 3).Draw(rt, "kind") {
			case 0:
				path, kind = "/api/v1/ledger/cycles/2027/deliveries/DE", "relocations"
				body = fmt.Sprintf(`{"type":"relocation.delivered","relocations":%d,"over_delivery":%v}`, n, rapid.Bool().Draw(rt, "over"))
			case 1:
				path, kind = "/api/v1/ledger/cycles/2027/deliveries/DE", "payments"
				body = fmt.Sprintf(`{"type":"payment.made","eur_cents":%d,"over_delivery":%v}`, n, rapid.Bool().Draw(rt, "over"))
			case 2:
				path = "/api/v1/ledger/cycles/2027/pledges/DE"
				body = fmt.Sprintf(`{"type":"relocation-applicants","relocations":%d}`, n)
			default:
				path = "/api/v1/ledger/cycles/2027/pledges/FR"
				body = fmt.Sprintf(`{"type":"financial","eur_cents":%d}`, n)
			}
			res, b := f.do(req{method: "POST", path: path, as: "coord", body: body})
			switch {
			case res.StatusCode == http.StatusCreated:
				if kind != "" {
					sum[kind].Add(sum[kind], big.NewInt(n))
				}
			case res.StatusCode >= 500 || res.StatusCode < 400:
				rt.Fatalf("POST %s %s: %d %s", path, body, res.StatusCode, b)
			}
			for _, r := range []req{
				{method: "GET", path: "/api/v1/ledger/cycles/2027/balances"},
				{method: "GET", path: "/api/v1/ledger/cycles/2027/balances?as_of=2027-02-01"},
				{method: "GET", path: "/pool/2027"},
				{method: "GET", path: "/pool/2027/states/DE"},
				{method: "GET", path: "/api/v1/ledger/verify", as: "audit"},
			} {
				if res, b := f.do(r); res.StatusCode != http.StatusOK {
					rt.Fatalf("after POST %s %s: GET %s: %d %s", path, body, r.path, res.StatusCode, grep(b, "error"))
				}
			}
		}
		reloc, pay := delivered(rt)
		cents := new(big.Rat).Mul(new(big.Rat).SetInt(sum["payments"]), big.NewRat(1, 100)).FloatString(2)
		if fmt.Sprint(reloc) != sum["relocations"].String() || pay != cents {
			rt.Fatalf("delivered %d relocations and EUR %s, the accepted deliveries sum to %v and EUR %s", reloc, pay, sum["relocations"], cents)
		}
		res, b := f.do(req{method: "GET", path: "/api/v1/ledger/verify", as: "audit"})
		if res.StatusCode != 200 || !strings.Contains(b, `"ok": true`) {
			rt.Fatalf("verify: %d %s", res.StatusCode, b)
		}
	})
}

// Issue 12 §3 on the form and the API: a pledge of a counted type without an amount
// (or of 0) is refused and leaves the state's pledge as it was; "none" is explicit.
func TestPledgeWithoutAmountRefused(t *testing.T) {
	f := newFixture(t, fixtureOpts{passwords: true})
	if res, b := f.do(req{method: "POST", path: "/api/v1/ledger/cycles/2027/pledges/DE", as: "de", body: `{"type":"relocation-applicants","relocations":500}`}); res.StatusCode != 201 {
		t.Fatalf("pledge: %d %s", res.StatusCode, b)
	}
	for _, body := range []string{`{"type":"relocation-applicants"}`, `{"type":"relocation-applicants","relocations":0}`, `{"type":"financial"}`, `{"type":"none","relocations":3}`} {
		if res, b := f.do(req{method: "POST", path: "/api/v1/ledger/cycles/2027/pledges/DE", as: "de", body: body}); res.StatusCode != 400 || apiErr(t, b).Code != solidarity.EINVALID {
			t.Errorf("API pledge %s: %d %s", body, res.StatusCode, b)
		}
	}
	cookie := f.session("de")
	for _, amount := range []string{"", "0", "9223372036854775807"} {
		form := url.Values{"type": {"relocation-applicants"}, "amount": {amount}}
		res, b := f.do(req{method: "POST", path: "/pool/2027/states/DE/pledges", cookie: cookie, body: form.Encode(),
			contentType: "application/x-www-form-urlencoded", header: map[string]string{"Origin": f.ts.URL}})
		if res.StatusCode < 400 || res.StatusCode >= 500 {
			t.Errorf("form pledge of %q: %d %s", amount, res.StatusCode, grep(b, "error"))
		}
	}
	_, b := f.do(req{method: "GET", path: "/api/v1/ledger/cycles/2027/balances"})
	if !strings.Contains(b, `"relocation_applicants": 500`) {
		t.Fatalf("DE's pledge after the refused writes: %s", grep(b, "relocation_applicants"))
	}
}
