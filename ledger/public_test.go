package ledger_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/ledger"
)

// publicChain is a small ledger of public and case-flow entries: a cycle, a pledge, an
// arrival (redacted), a delivery, a case event (redacted) and a payment.
func publicChain(t testing.TB) []*solidarity.Entry {
	t.Helper()
	at := time.Date(2027, 2, 1, 9, 0, 0, 123456000, time.UTC)
	mk := func(typ solidarity.EntryType, state solidarity.MemberState, payload string) *solidarity.Entry {
		return &solidarity.Entry{Cycle: 2027, Type: typ, State: state, Actor: "coord", LegalBasis: "Art. 57(1)", Payload: json.RawMessage(payload)}
	}
	es := []*solidarity.Entry{
		mk(solidarity.CycleCreated, "", `{"toml":"year = 2027\n<a & b>"}`),
		mk(solidarity.PledgeMade, "DE", `{"type":"financial","eur_cents":100}`),
		mk(solidarity.ArrivalRegistered, "IT", `{"arrival":{"id":"A1"},"families":[]}`),
		mk(solidarity.RelocationDelivered, "DE", `{"relocations":3}`),
		mk(solidarity.CaseEvent, "IT", `{"case":"C1"}`),
		mk(solidarity.PaymentMade, "DE", `{ "eur_cents": 5 }`), // not compact: published as text
	}
	prev := ""
	for i, e := range es {
		e.Seq, e.At = int64(i+1), at.Add(time.Duration(i)*time.Minute)
		ledger.Seal(e, prev)
		prev = e.Hash
	}
	return es
}

func download(t testing.TB, es []*solidarity.Entry) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := ledger.NewPublicEncoder(&b)
	for _, e := range es {
		if err := enc.Encode(ledger.Publish(e)); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func TestVerifyPublic(t *testing.T) {
	es := publicChain(t)
	d := download(t, es)
	v, err := ledger.VerifyPublic(bytes.NewReader(d))
	if err != nil {
		t.Fatal(err)
	}
	want := ledger.PublicVerification{OK: true, Entries: 6, Recomputed: 4, Linked: 2, HeadSeq: 6, Head: es[5].Hash}
	if *v != want {
		t.Fatalf("%+v, want %+v", *v, want)
	}
	if bytes.Contains(d, []byte("A1")) || bytes.Contains(d, []byte("C1")) {
		t.Errorf("a redacted payload is in the download:\n%s", d)
	}
}

func TestVerifyPublicEmpty(t *testing.T) {
	v, err := ledger.VerifyPublic(strings.NewReader(""))
	if err != nil || !v.OK || v.Entries != 0 {
		t.Fatalf("%+v %v", v, err)
	}
}

func TestVerifyPublicTampered(t *testing.T) {
	es := publicChain(t)
	lines := strings.SplitAfter(string(download(t, es)), "\n")
	for _, c := range []struct {
		name     string
		line     int // 1-based
		old, new string
		badLine  int
		badSeq   int64
		problem  string
	}{
		{"pledge amount", 2, `"eur_cents":100`, `"eur_cents":101`, 2, 2, "content does not match"},
		{"pledge state", 2, `"state":"DE"`, `"state":"FR"`, 2, 2, "content does not match"},
		{"text payload", 6, `5 }`, `6 }`, 6, 6, "content does not match"},
		{"redacted hash", 3, `"hash":"` + es[2].Hash, `"hash":"` + strings.Repeat("0", 64), 4, 4, "prev_hash"},
		{"redacted gains a payload", 3, `"redacted":true`, `"redacted":true,"payload":{}`, 3, 3, "redacted entry carries"},
		{"redaction removed", 3, `,"redacted":true`, ``, 3, 3, "content does not match"},
		{"sequence", 4, `"seq":4`, `"seq":5`, 4, 5, "sequence number 5 where 4"},
		{"not JSON", 5, `{`, `[`, 5, 5, "not an entry"},
		{"unknown field", 1, `{`, `{"x":1,`, 1, 1, "not an entry"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ls := slices.Clone(lines)
			if !strings.Contains(ls[c.line-1], c.old) {
				t.Fatalf("line %d has no %q: %s", c.line, c.old, ls[c.line-1])
			}
			ls[c.line-1] = strings.Replace(ls[c.line-1], c.old, c.new, 1)
			v, err := ledger.VerifyPublic(strings.NewReader(strings.Join(ls, "")))
			if err != nil {
				t.Fatal(err)
			}
			if v.OK || v.BadLine != c.badLine || v.BadSeq != c.badSeq || !strings.Contains(v.Problem, c.problem) {
				t.Fatalf("%+v, want line %d seq %d %q", *v, c.badLine, c.badSeq, c.problem)
			}
			if v.Entries != int64(c.badLine-1) {
				t.Errorf("%d good entries before line %d", v.Entries, c.badLine)
			}
		})
	}
	t.Run("line removed", func(t *testing.T) {
		v, _ := ledger.VerifyPublic(strings.NewReader(lines[0] + lines[2]))
		if v.OK || v.BadLine != 2 || v.BadSeq != 3 {
			t.Fatalf("%+v", *v)
		}
	})
}

// FuzzVerifyPublic: whatever the download, verification does not fail with an error
// nor panic, its counts add up, and a download it accepts re-encodes to one it accepts
// with the same head.
func FuzzVerifyPublic(f *testing.F) {
	d := download(f, publicChain(f))
	f.Add(d)
	f.Add([]byte{})
	f.Add(d[:len(d)/2])
	f.Add(bytes.Replace(d, []byte(`"eur_cents":100`), []byte(`"eur_cents":1`), 1))
	f.Add([]byte(`{"seq":1,"cycle":0,"type":"","at":"0001-01-01T00:00:00Z","prev_hash":"","hash":"` + strings.Repeat("a", 64) + `","redacted":true}` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := ledger.VerifyPublic(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if v.Recomputed+v.Linked != v.Entries || v.HeadSeq != v.Entries {
			t.Fatalf("counts %+v", *v)
		}
		if v.OK != (v.BadLine == 0) {
			t.Fatalf("ok and bad line disagree: %+v", *v)
		}
		if !v.OK {
			return
		}
		var again bytes.Buffer
		enc := ledger.NewPublicEncoder(&again)
		for _, l := range bytes.Split(b, []byte("\n")) {
			if len(bytes.TrimSpace(l)) == 0 {
				continue
			}
			var p ledger.PublicEntry
			if err := json.Unmarshal(l, &p); err != nil {
				t.Fatalf("accepted line does not decode: %v", err)
			}
			if err := enc.Encode(&p); err != nil {
				t.Fatal(err)
			}
		}
		w, err := ledger.VerifyPublic(&again)
		if err != nil || !w.OK || w.Head != v.Head || w.Entries != v.Entries {
			t.Fatalf("re-encoded: %+v %v, first %+v", w, err, *v)
		}
	})
}
