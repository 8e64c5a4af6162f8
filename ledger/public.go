package ledger

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"solidarity"
)

// The public download of the ledger (issue 14: an open, checkable ledger): every entry
// in sequence order, one JSON object per line. The entries the public may read
// (cycles, statuses, pledges, deductions, offsets, deliveries) are published in full,
// so anyone can recompute their hashes. The case-flow entries hold personal data in
// their payload, and their state, reference and actor would tie a person to a case;
// the canonical encoding hashes the payload itself, not a digest of it, so their hash
// cannot be recomputed without it. They are published redacted — sequence number,
// cycle, type, time and the two hashes — and are "linked, not recomputed": the next
// entry's prev_hash must still equal their hash, so none can be changed, removed or
// reordered without breaking a recomputed entry after it or the published head.

// MaxPublicLine is the longest line VerifyPublic reads: a cycle entry carries its whole
// cycle file.
const MaxPublicLine = 16 << 20

// PublicEntry is one line of the public download. Redacted entries have only Seq,
// Cycle, Type, At, PrevHash, Hash and Redacted.
type PublicEntry struct {
	Seq        int64                  `json:"seq"`
	Cycle      int                    `json:"cycle"`
	Type       solidarity.EntryType   `json:"type"`
	State      solidarity.MemberState `json:"state,omitempty"`
	Ref        string                 `json:"ref,omitempty"`
	Actor      string                 `json:"actor,omitempty"`
	At         time.Time              `json:"at"`
	LegalBasis string                 `json:"legal_basis,omitempty"`
	Payload    json.RawMessage        `json:"payload,omitempty"`
	// PayloadText holds the payload's exact bytes as a string when they are not
	// compact JSON: a JSON line would re-encode them, and the hash covers the bytes.
	PayloadText *string `json:"payload_text,omitempty"`
	PrevHash    string  `json:"prev_hash"`
	Hash        string  `json:"hash"`
	Redacted    bool    `json:"redacted,omitempty"`
}

// Redacted reports whether entries of type t are published redacted: the case flow's.
func Redacted(t solidarity.EntryType) bool {
	return slices.Contains(solidarity.CaseEntryTypes(), t)
}

// Publish returns e as the public download shows it.
func Publish(e *solidarity.Entry) *PublicEntry {
	p := &PublicEntry{Seq: e.Seq, Cycle: e.Cycle, Type: e.Type, At: e.At.UTC(), PrevHash: e.PrevHash, Hash: e.Hash}
	if Redacted(e.Type) {
		p.Redacted = true
		return p
	}
	p.State, p.Ref, p.Actor, p.LegalBasis = e.State, e.Ref, e.Actor, e.LegalBasis
	if compact(e.Payload) {
		p.Payload = e.Payload
	} else {
		s := string(e.Payload)
		p.PayloadText = &s
	}
	return p
}

// Entry returns the entry a full line publishes, to be hashed.
func (p *PublicEntry) Entry() *solidarity.Entry {
	e := &solidarity.Entry{Seq: p.Seq, Cycle: p.Cycle, Type: p.Type, State: p.State, Ref: p.Ref, Actor: p.Actor,
		At: p.At, LegalBasis: p.LegalBasis, Payload: p.Payload, PrevHash: p.PrevHash, Hash: p.Hash}
	if p.PayloadText != nil {
		e.Payload = json.RawMessage(*p.PayloadText)
	}
	return e
}

// NewPublicEncoder returns an encoder of public lines that keeps payload bytes as they
// are (no HTML escaping, which would change what the hash covers).
func NewPublicEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// PublicVerification is the result of checking a public download.
type PublicVerification struct {
	OK         bool   `json:"ok"`
	Entries    int64  `json:"entries"`    // lines checked and good
	Recomputed int64  `json:"recomputed"` // of which the hash was recomputed
	Linked     int64  `json:"linked"`     // of which redacted: linked, not recomputed
	HeadSeq    int64  `json:"head_seq"`
	Head       string `json:"head,omitempty"`
	BadLine    int    `json:"bad_line,omitempty"` // the first line that does not match
	BadSeq     int64  `json:"bad_seq,omitempty"`
	Problem    string `json:"problem,omitempty"`
}

// VerifyPublic checks a public download: sequence numbers 1, 2, 3, ... one per line,
// each prev_hash equal to the previous line's hash, and each full entry's hash equal to
// the one recomputed from it. It stops at the first bad line and names it; the error
// is only for a reader that fails.
func VerifyPublic(r io.Reader) (*PublicVerification, error) {
	v := &PublicVerification{OK: true}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxPublicLine)
	line := 0
	for sc.Scan() {
		line++
		p, problem := checkPublicLine(sc.Bytes(), v.HeadSeq+1, v.Head)
		if problem != "" {
			v.OK, v.BadLine, v.Problem = false, line, problem
			v.BadSeq = v.HeadSeq + 1
			if p != nil && p.Seq != 0 {
				v.BadSeq = p.Seq
			}
			return v, nil
		}
		v.Entries++
		if p.Redacted {
			v.Linked++
		} else {
			v.Recomputed++
		}
		v.HeadSeq, v.Head = p.Seq, p.Hash
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			v.OK, v.BadLine, v.BadSeq = false, line+1, v.HeadSeq+1
			v.Problem = fmt.Sprintf("line longer than %d bytes", MaxPublicLine)
			return v, nil
		}
		return nil, err
	}
	return v, nil
}

// checkPublicLine decodes one line and checks it follows the entry want-1 of hash
// prev; it returns what is wrong, "" when nothing is.
func checkPublicLine(b []byte, want int64, prev string) (*PublicEntry, string) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p PublicEntry
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Sprintf("not an entry: %v", err)
	}
	if len(bytes.TrimSpace(b[dec.InputOffset():])) != 0 {
		return &p, "more than one JSON value on the line"
	}
	full := p.State != "" || p.Ref != "" || p.Actor != "" || p.LegalBasis != "" || p.Payload != nil || p.PayloadText != nil
	switch {
	case p.Seq != want:
		return &p, fmt.Sprintf("sequence number %d where %d was expected (an entry is missing or was inserted)", p.Seq, want)
	case p.PrevHash != prev:
		return &p, fmt.Sprintf("prev_hash %.12s… does not match the hash of entry %d (%.12s…)", p.PrevHash, want-1, prev)
	case !isHash(p.Hash):
		return &p, "hash is not 64 hex digits"
	case p.Redacted && full:
		return &p, "a redacted entry carries published fields"
	case !p.Redacted && p.Payload != nil && p.PayloadText != nil:
		return &p, "payload given twice"
	case !p.Redacted && p.Payload != nil && !compact(p.Payload):
		return &p, "payload is not compact JSON (exact bytes go in payload_text)"
	case !p.Redacted && Hash(p.Entry()) != p.Hash:
		return &p, fmt.Sprintf("content does not match its hash %.12s… (the entry was changed after it was written)", p.Hash)
	}
	return &p, ""
}

// compact reports whether b is JSON that a JSON line keeps byte for byte.
func compact(b []byte) bool {
	var c bytes.Buffer
	return json.Compact(&c, b) == nil && bytes.Equal(c.Bytes(), b)
}

func isHash(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 32 && hex.EncodeToString(b) == s
}
