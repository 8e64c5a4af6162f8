package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The reads and the deadline commands run the same code on a server as on a local
// database, through internal/client: verify, export, the deadline view and --apply.
// erase and keys reseal, which the API does not serve, say they need a local database.
func TestRemoteReadsAndDeadlines(t *testing.T) {
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")
	db := filepath.Join(t.TempDir(), "r.db")
	addr, _ := startServe(t, "--db", db, "--demo=false")
	server := "http://" + addr
	if code, _, errs := run(t, "user", "add", "--db", db, "--name", "coord", "--role", "coordinator"); code != 0 {
		t.Fatal(errs)
	}
	_, tok, _ := run(t, "token", "create", "--db", db, "--name", "coord")
	remote := []string{"--server", server, "--token", strings.TrimSpace(tok)}

	_, local, _ := run(t, "ledger", "verify", "--db", db)
	code, out, errs := run(t, append([]string{"ledger", "verify"}, remote...)...)
	if code != 0 || out != local || !strings.HasPrefix(out, "ledger OK: 2 entries") {
		t.Fatalf("remote verify: exit %d %q %s; local %q", code, out, errs, local)
	}
	_, localExport, _ := run(t, "ledger", "export", "--db", db)
	code, out, errs = run(t, append([]string{"ledger", "export"}, remote...)...)
	if code != 0 || out != localExport || strings.Count(out, "\n") != 2 || !strings.Contains(errs, "exported 2 entries") {
		t.Fatalf("remote export: exit %d %.200q %s", code, out, errs)
	}
	code, out, errs = run(t, append([]string{"deadlines", "--state", "it", "--within", "48h"}, remote...)...)
	if code != 0 || !strings.Contains(out, "0 time limits as of") {
		t.Fatalf("remote deadlines: exit %d %q %s", code, out, errs)
	}
	code, out, errs = run(t, append([]string{"deadlines", "--apply", "--yes"}, remote...)...)
	if code != 0 || !strings.Contains(out, "no missed time limit has a consequence to apply") {
		t.Fatalf("remote deadlines --apply: exit %d %q %s", code, out, errs)
	}
	code, _, errs = run(t, append([]string{"erase", "--yes"}, remote...)...)
	if code != 2 || !strings.Contains(errs, "erase works on a local database only") {
		t.Fatalf("remote erase: exit %d %s", code, errs)
	}
	code, _, errs = run(t, append([]string{"keys", "reseal"}, remote...)...)
	if code != 2 || !strings.Contains(errs, "keys works on a local database only") {
		t.Fatalf("remote keys reseal: exit %d %s", code, errs)
	}
	// The public may not verify: the server's refusal is exit 2.
	if code, _, errs := run(t, "ledger", "verify", "--server", server); code != 2 || !strings.Contains(errs, "authentication required") {
		t.Fatalf("public verify: exit %d %s", code, errs)
	}
}

// The case commands run the same code on a server as on a local database. On one
// database, served and opened locally by the same user: the same write on two
// landings of the same list, one remotely and one locally, prints the same but for
// the IDs and entry numbers; a retry (same key) and a refusal print the same bytes
// either way, as do the reads; and the server logs no more of a person than the
// local commands do: nothing.
func TestRemoteCaseFlow(t *testing.T) {
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")
	db := filepath.Join(t.TempDir(), "c.db")
	// The server creates the database and its key file, which the local commands read.
	addr, _, logs := startServeLogs(t, "--db", db, "--demo=false")
	for _, u := range [][]string{{"--name", "coord", "--role", "coordinator"}, {"--name", "off-de", "--role", "officer", "--state", "DE"}} {
		if code, _, errs := run(t, append([]string{"user", "add", "--db", db}, u...)...); code != 0 {
			t.Fatal(errs)
		}
	}
	token := func(name string) []string {
		_, tok, _ := run(t, "token", "create", "--db", db, "--name", name)
		return []string{"--server", "http://" + addr, "--token", strings.TrimSpace(tok)}
	}
	remote, asDE := token("coord"), token("off-de")
	local := []string{"--db", db, "--as", "coord"}
	type result struct {
		code     int
		out, err string
	}
	on := func(where []string, args ...string) result {
		t.Helper()
		code, out, errs := run(t, append(args, where...)...)
		return result{code, out, errs}
	}
	same := func(what string, r, l result) {
		t.Helper()
		if r != l {
			t.Errorf("%s: remote\n%+v\nlocal\n%+v", what, r, l)
		}
	}
	const ship = "../../arrival/testdata/ship.csv"

	// arrival import: remotely, then its retry locally; locally, then remotely.
	first := on(remote, "arrival", "import", ship, "--key", "k1")
	if first.code != 0 || !strings.HasPrefix(first.out, "registered arrival ARR-") || !strings.Contains(first.out, ": 10 persons in 7 families (1 unaccompanied minors), ledger entry ") {
		t.Fatalf("remote import: %+v", first)
	}
	same("import retried", on(remote, "arrival", "import", ship, "--key", "k1"), on(local, "arrival", "import", ship, "--key", "k1"))
	if r := on(local, "arrival", "import", ship, "--key", "k1"); r.out != strings.Replace(first.out, "registered", "already registered (same key)", 1) {
		t.Fatalf("local retry of the remote import: %+v\nfirst %q", r, first.out)
	}
	same("the same landing without a key", on(remote, "arrival", "import", ship), on(local, "arrival", "import", ship))
	newLanding := on(local, "arrival", "import", ship, "--new-landing", "--key", "k2")
	same("a new landing", on(remote, "arrival", "import", ship, "--new-landing", "--key", "k2"),
		result{newLanding.code, strings.Replace(newLanding.out, "registered", "already registered (same key)", 1), ""})
	localDE := []string{"--db", db, "--as", "off-de"}
	same("an officer of another state imports", on(asDE, "arrival", "import", ship), on(localDE, "arrival", "import", ship))

	// The case list, in both formats.
	list := on(local, "cases")
	same("cases", on(remote, "cases"), list)
	same("cases --format json", on(remote, "cases", "--format", "json"), on(local, "cases", "--format", "json"))
	arrivalA := regexp.MustCompile(`ARR-\w+`).FindString(first.out)
	arrivalB := regexp.MustCompile(`ARR-\w+`).FindString(newLanding.out)
	same("cases --arrival", on(remote, "cases", "--arrival", arrivalA), on(local, "cases", "--arrival", arrivalA))
	same("cases of the officer of DE", on(asDE, "cases"), on(localDE, "cases"))
	// The family of three of each arrival (the list's family K1): A's moves remotely,
	// B's locally, and their outputs are the same but for the IDs and entry numbers.
	familyOfThree := func(arrival string) (string, string) {
		t.Helper()
		for _, m := range regexp.MustCompile(`(?m)^(C-\w+)\s+(F-\w+)\s+`+arrival).FindAllStringSubmatch(list.out, -1) {
			if strings.Count(list.out, m[2]) == 3 {
				return m[2], m[1]
			}
		}
		t.Fatalf("no family of three of %s in\n%s", arrival, list.out)
		return "", ""
	}
	familyA, idA := familyOfThree(arrivalA)
	_, idB := familyOfThree(arrivalB)
	ids := regexp.MustCompile(`\b(C|F|ARR)-[0-9A-Z]+\b|ledger entry \d+`)
	masked := func(r result) result {
		r.out = ids.ReplaceAllStringFunc(r.out, func(s string) string {
			if strings.HasPrefix(s, "ledger entry") {
				return "ledger entry N"
			}
			return s[:strings.Index(s, "-")] + "-ID"
		})
		return r
	}

	// event: the same steps on either family; a retry with the key, refusals and bad
	// times alike.
	for i, ev := range []string{"screening-started", "application-made", "registered", "relocation-candidate", "relocation-security-cleared"} {
		args := func(id string) []string {
			return []string{"event", id, ev, "--at", "2024-09-1" + strconv.Itoa(5+i), "--family", "--key", "e-" + id + ev}
		}
		r, l := on(remote, args(idA)...), on(local, args(idB)...)
		if r.code != 0 || strings.Count(r.out, "\n") != 3 || !strings.Contains(r.out, idA) {
			t.Fatalf("remote %s: %+v", ev, r)
		}
		same(ev, masked(r), masked(l))
		same(ev+" retried", on(remote, args(idA)...), on(local, args(idA)...))
	}
	same("an event the state does not allow", on(remote, "event", idA, "registered"), on(local, "event", idA, "registered"))
	// The refusal of a time in the future names the service's clock, to the second.
	clock := regexp.MustCompile(`\(now [^)]*\)`)
	future := func(r result) result { r.err = clock.ReplaceAllString(r.err, "(now)"); return r }
	same("an event in the future", future(on(remote, "event", idA, "registered", "--at", "2100-01-01")), future(on(local, "event", idA, "registered", "--at", "2100-01-01")))
	same("an event of another state's officer", on(asDE, "event", idA, "relocation-allocated"), on(localDE, "event", idA, "relocation-allocated"))

	// allocate, once DE pledged places.
	if r := on(asDE, "pledge", "add", "--cycle", "2026", "--state", "DE", "--type", "relocation-applicants", "--relocations", "10"); r.code != 0 {
		t.Fatalf("pledge: %+v", r)
	}
	al := on(remote, "allocate", idA, "de", "--key", "a1")
	if al.code != 0 || !strings.HasPrefix(al.out, "allocated 3 case(s) of family "+familyA+" to DE (ledger entry ") {
		t.Fatalf("remote allocate: %+v", al)
	}
	same("allocate", masked(al), masked(on(local, "allocate", idB, "de", "--key", "b1")))
	same("allocate retried", on(remote, "allocate", idA, "de", "--key", "a1"), on(local, "allocate", idA, "de", "--key", "a1"))
	same("allocate by an officer", on(asDE, "allocate", idA, "DE"), on(localDE, "allocate", idA, "DE"))
	same("cases after the allocation", on(remote, "cases"), on(local, "cases"))
	same("DE's cases after the allocation", on(asDE, "cases"), on(localDE, "cases"))
	if r := on(asDE, "cases"); strings.Count(r.out, "\n") != 7 {
		t.Errorf("DE sees %d cases, want the two families' 6:\n%s", strings.Count(r.out, "\n")-1, r.out)
	}
	id := idA
	// case: the flow, the person and the determination (each read logged).
	for _, args := range [][]string{{"case", id}, {"case", id, "--format", "json"}, {"case", id, "--person"}, {"case", id, "--determine"},
		{"case", id, "--determine", "--format", "json"}, {"case", "C-NOSUCHCASE"}} {
		same(strings.Join(args, " "), on(remote, args...), on(local, args...))
	}
	// A flag a command does not take is an error remotely too.
	same("cases --family", on(remote, "cases", "--family"), on(local, "cases", "--family"))
	same("event --yes", on(remote, "event", id, "registered", "--yes"), on(local, "event", id, "registered", "--yes"))

	// The server logged the requests, not the people: no name of the list.
	if !strings.Contains(logs.String(), "/api/v1/cases/"+id+"/person") {
		t.Fatalf("the server logged no person read:\n%.2000s", logs.String())
	}
	for _, name := range []string{"Ada", "Sample", "Omar", "Example", "Yonas"} {
		if strings.Contains(logs.String(), name) {
			t.Errorf("the server's log names %q:\n%s", name, logs.String())
		}
	}
}
