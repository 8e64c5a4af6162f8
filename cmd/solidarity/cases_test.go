package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"solidarity/deadline"
	"solidarity/internal/casesvc"
)

// TestCaseFlowCLI walks a ship's list through the case commands on a local SQLite
// database: import, refusal of a bad list with nothing written, events, the deadline
// view, a logged person read, and retention.
func TestCaseFlowCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")

	// A bad list: a birth date after the arrival, on line 8 of the file.
	src, err := os.ReadFile("../../arrival/testdata/ship.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	bad := slicesClone(lines)
	bad[7] = regexp.MustCompile(`\d{4}-\d\d-\d\d`).ReplaceAllString(bad[7], "2030-01-01")
	badFile := filepath.Join(dir, "bad.csv")
	os.WriteFile(badFile, []byte(strings.Join(bad, "\n")), 0o644)
	code, _, errs := run(t, "arrival", "import", badFile, "--db", db)
	if code == 0 || !strings.Contains(errs, "bad.csv:8: field \"birth_date\"") {
		t.Fatalf("bad list: exit %d, %q", code, errs)
	}
	code, out, _ := run(t, "cases", "--db", db)
	if code != 0 || strings.Count(out, "\n") != 1 {
		t.Fatalf("a refused list left cases: exit %d\n%s", code, out)
	}

	code, out, errs = run(t, "arrival", "import", "../../arrival/testdata/ship.csv", "--db", db, "--key", "k1")
	if code != 0 || !strings.Contains(out, "registered arrival") {
		t.Fatalf("import: exit %d %s %s", code, out, errs)
	}
	// A retry with the same key registers nothing twice.
	code, out, _ = run(t, "arrival", "import", "../../arrival/testdata/ship.csv", "--db", db, "--key", "k1")
	if code != 0 || !strings.Contains(out, "already registered") {
		t.Fatalf("retry: exit %d %s", code, out)
	}
	code, out, _ = run(t, "cases", "--db", db)
	ids := regexp.MustCompile(`(?m)^(C-\w+)`).FindAllString(out, -1)
	if code != 0 || len(ids) != 10 {
		t.Fatalf("cases: exit %d, %d cases\n%s", code, len(ids), out)
	}
	id := ids[0]
	// Not allowed in ARRIVED_SAR: refused, naming what is allowed.
	code, _, errs = run(t, "event", id, "registered", "--db", db)
	if code == 0 || !strings.Contains(errs, "screening-started") {
		t.Fatalf("invalid transition: exit %d %q", code, errs)
	}
	// A time from outside that is the zero time, before 1990 or in the future is
	// refused naming --at, never read as now.
	for _, at := range []string{"0001-01-01", "0001-01-01T00:00:00Z", "1900-01-01", "2100-01-01", "soon"} {
		code, _, errs := run(t, "event", id, "screening-started", "--db", db, "--at", at)
		if code != 2 || !strings.Contains(errs, "--at") && !strings.Contains(errs, `field "at"`) {
			t.Errorf("--at %s: exit %d %q", at, code, errs)
		}
	}
	for _, ev := range []string{"screening-started", "application-made"} {
		if code, out, errs := run(t, "event", id, ev, "--db", db, "--at", "2024-09-15"); code != 0 {
			t.Fatalf("%s: exit %d %s %s", ev, code, out, errs)
		}
	}
	// The registration time limit (Art. 27 APR) ran out long ago.
	code, out, _ = run(t, "deadlines", "--db", db)
	if code != 0 || !strings.Contains(out, "OVERDUE") || !strings.Contains(out, id) {
		t.Fatalf("deadlines: exit %d\n%s", code, out)
	}
	// The case's next limit in the case list is the first of its deadlines, written
	// as the deadline view writes it.
	code, out, _ = run(t, "cases", "--db", db)
	row := regexp.MustCompile(`(?m)^` + id + `\s.*?(\d{4}-\d\d-\d\d(?: \d\d:\d\d UTC)?)\s*$`).FindStringSubmatch(out)
	code2, caseJSON, _ := run(t, "case", id, "--db", db, "--format", "json")
	var v struct {
		Case struct {
			Case struct {
				NextDue string `json:"next_due"`
			} `json:"case"`
			Deadlines []deadline.Due `json:"deadlines"`
		} `json:"case"`
	}
	if err := json.Unmarshal([]byte(caseJSON), &v); code != 0 || code2 != 0 || row == nil || err != nil || len(v.Case.Deadlines) == 0 {
		t.Fatalf("cases / case: exit %d %d, row %v, %v\n%s\n%s", code, code2, row, err, out, caseJSON)
	}
	first := v.Case.Deadlines[0]
	if row[1] != casesvc.DueText(first) || v.Case.Case.NextDue != first.Due.Format(time.RFC3339) {
		t.Errorf("cases says next due %q, case says next_due %s, its first deadline %s (%s)", row[1], v.Case.Case.NextDue, casesvc.DueText(first), first.Due)
	}
	// --apply lists what it would record and asks: without an answer nothing is
	// recorded; "n" records nothing; --yes records the list.
	countEntries := func() int {
		t.Helper()
		_, out, _ := run(t, "ledger", "verify", "--db", db)
		m := regexp.MustCompile(`(\d+) entries`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("ledger verify: %s", out)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	// Another person's screening started long ago: its limit has run out, and the
	// law says what follows (Art. 18(1) SR).
	if code, out, errs := run(t, "event", ids[9], "screening-started", "--db", db, "--at", "2024-09-15"); code != 0 {
		t.Fatalf("screening-started: exit %d %s %s", code, out, errs)
	}
	before := countEntries()
	confirmInput = strings.NewReader("")
	code, out, errs = run(t, "deadlines", "--apply", "--db", db)
	if code != 2 || !strings.Contains(out, "to apply:") || !strings.Contains(out, ids[9]) || !strings.Contains(errs, "--yes") {
		t.Fatalf("deadlines --apply without an answer: exit %d\n%s\n%s", code, out, errs)
	}
	confirmInput = strings.NewReader("n\n")
	if code, out, _ = run(t, "deadlines", "--apply", "--db", db); code != 0 || !strings.Contains(out, "nothing applied") {
		t.Fatalf("deadlines --apply answered n: exit %d\n%s", code, out)
	}
	if n := countEntries(); n != before {
		t.Fatalf("--apply not confirmed wrote %d entries", n-before)
	}
	code, out, errs = run(t, "deadlines", "--apply", "--yes", "--db", db)
	if code != 0 || !strings.Contains(out, "applied:") || countEntries() == before {
		t.Fatalf("deadlines --apply --yes: exit %d\n%s\n%s", code, out, errs)
	}
	// The person referred to return is returned: the case closes, and its personal
	// record is due for erasure a day later. erase says how many and asks first.
	if code, out, errs := run(t, "event", ids[9], "returned", "--db", db, "--at", "2024-10-01"); code != 0 {
		t.Fatalf("returned: exit %d %s %s", code, out, errs)
	}
	confirmInput = strings.NewReader("")
	if code, out, errs = run(t, "erase", "--after", "24h", "--db", db); code != 2 || !strings.Contains(out, "to erase, for good: the personal records of 1 cases") {
		t.Fatalf("erase without an answer: exit %d\n%s\n%s", code, out, errs)
	}
	confirmInput = strings.NewReader("no\n")
	if code, out, _ = run(t, "erase", "--after", "24h", "--db", db); code != 0 || !strings.Contains(out, "nothing erased") {
		t.Fatalf("erase answered no: exit %d\n%s", code, out)
	}
	confirmInput = strings.NewReader("y\n")
	if code, out, _ = run(t, "erase", "--after", "24h", "--db", db); code != 0 || !strings.Contains(out, "erased the personal records of 1 cases") {
		t.Fatalf("erase answered y: exit %d\n%s", code, out)
	}
	confirmInput = os.Stdin
	// A person read shows the record and is logged.
	code, out, _ = run(t, "case", id, "--person", "--db", db)
	if code != 0 || !strings.Contains(out, `"name"`) {
		t.Fatalf("case --person: exit %d\n%s", code, out)
	}
	// Nothing is closed, so retention erases nothing.
	code, out, _ = run(t, "erase", "--db", db)
	if code != 0 || !strings.Contains(out, "erased the personal records of 0 cases") {
		t.Fatalf("erase: exit %d %s", code, out)
	}
	// Key rotation: a second key in the key file, reseal, and the records open with it.
	code, newKey, _ := run(t, "keys", "new", "--id", "2")
	if code != 0 || !strings.HasPrefix(newKey, "2:") {
		t.Fatalf("keys new: exit %d %q", code, newKey)
	}
	kf, err := os.OpenFile(db+".keys", os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	kf.WriteString(newKey)
	kf.Close()
	code, out, _ = run(t, "keys", "reseal", "--db", db)
	if code != 0 || !strings.Contains(out, "resealed 9 personal records with key 2") { // the tenth was erased
		t.Fatalf("keys reseal: exit %d %s", code, out)
	}
	code, out, _ = run(t, "ledger", "verify", "--db", db)
	if code != 0 {
		t.Fatalf("verify: exit %d %s", code, out)
	}
	// The same ship's list again without its key: refused, naming the arrival; then
	// confirmed as a new landing.
	code, _, errs = run(t, "arrival", "import", "../../arrival/testdata/ship.csv", "--db", db)
	if code != 2 || !regexp.MustCompile(`arrival ARR-\w+ already records`).MatchString(errs) {
		t.Fatalf("the same list again: exit %d %q", code, errs)
	}
	code, out, errs = run(t, "arrival", "import", "../../arrival/testdata/ship.csv", "--db", db, "--new-landing")
	if code != 0 || !strings.Contains(out, "registered arrival") {
		t.Fatalf("--new-landing: exit %d %s %s", code, out, errs)
	}
	// A lost key file is an error, never silently replaced by a new key.
	if err := os.Rename(db+".keys", db+".keys.bak"); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, "case", id, "--person", "--db", db)
	if code == 0 || !strings.Contains(errs, "key file is missing") {
		t.Fatalf("without the key file: exit %d %q", code, errs)
	}
	if _, err := os.Stat(db + ".keys"); err == nil {
		t.Fatal("a new key file was created over encrypted records")
	}
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }
