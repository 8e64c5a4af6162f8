package groupcommit_test

import (
	"context"
	"errors"
	"testing"

	"solidarity"
	"solidarity/internal/groupcommit"
)

// caseDB is a fake store that applies nothing: it runs the check, takes the case
// write as the store would (CaseWrite), keeps it, and answers as answer says.
func caseDB(t *testing.T, answer func(r *groupcommit.Request) (replayed bool, err error)) (*groupcommit.Writer, *[]*solidarity.CaseWrite) {
	var taken []*solidarity.CaseWrite
	d := &db{}
	d.onAppend = func(r *groupcommit.Request) error {
		if r.Check != nil {
			if err := r.RunCheck(nil); err != nil {
				r.Answer(nil, false, err)
				return errReplayed
			}
		}
		cw, err := r.CaseWrite()
		if err != nil {
			r.Answer(nil, false, err)
			return errReplayed
		}
		taken = append(taken, cw)
		replayed, err := answer(r)
		c := *r.Entry
		c.Seq = 1
		if err != nil {
			r.Answer(nil, false, err)
		} else {
			r.Answer(&c, replayed, nil)
		}
		return errReplayed
	}
	return start(t, d), &taken
}

func TestAppendCaseVersions(t *testing.T) {
	ctx := context.Background()
	w, taken := caseDB(t, func(*groupcommit.Request) (bool, error) { return false, nil })
	ins := &solidarity.CaseRecord{ID: "C-1", Version: 5, Flow: []byte(`{"a":1}`)}
	upd := &solidarity.CaseRecord{ID: "C-2", Version: 3, State: "registered"}
	added := &solidarity.CaseRecord{ID: "C-3"}
	cw := &solidarity.CaseWrite{Insert: []*solidarity.CaseRecord{ins}, Update: []*solidarity.CaseRecord{upd}}
	// The check may fill the write in, as it may the entry: the store takes it after.
	_, replayed, err := w.AppendCase(ctx, "k", entry("r"), cw, func(solidarity.View) error {
		cw.Insert = append(cw.Insert, added)
		upd.State = "relocation_pending"
		return nil
	})
	if err != nil || replayed {
		t.Fatalf("AppendCase = %v, %v", replayed, err)
	}
	if ins.Version != 1 || added.Version != 1 || upd.Version != 4 {
		t.Fatalf("versions after success: insert %d %d, update %d; want 1 1 4", ins.Version, added.Version, upd.Version)
	}
	got := (*taken)[0]
	if len(got.Insert) != 2 || got.Insert[1].ID != "C-3" || got.Update[0].State != "relocation_pending" {
		t.Fatalf("the store took %+v: not the write as the check left it", got)
	}
	// The store's is a copy: the caller's records are its own again.
	ins.Flow[0] = 'X'
	if got.Insert[0] == ins || string(got.Insert[0].Flow) != `{"a":1}` || got.Update[0].Version != 3 {
		t.Fatalf("the store's write shares the caller's records: %+v", got.Insert[0])
	}

	// A plain Append has no case write.
	if _, _, err := w.Append(ctx, "", entry("p"), nil); err != nil {
		t.Fatal(err)
	}
	if (*taken)[1] != nil {
		t.Fatalf("a plain append took the case write %+v", (*taken)[1])
	}
}

func TestAppendCaseNoVersionsUnlessWritten(t *testing.T) {
	ctx := context.Background()
	refused := solidarity.Errorf(solidarity.ECONFLICT, "refused")
	for name, answer := range map[string]func(*groupcommit.Request) (bool, error){
		"replayed": func(*groupcommit.Request) (bool, error) { return true, nil },
		"refused":  func(*groupcommit.Request) (bool, error) { return false, refused },
	} {
		w, _ := caseDB(t, answer)
		ins := &solidarity.CaseRecord{ID: "C-1"}
		upd := &solidarity.CaseRecord{ID: "C-2", Version: 3}
		_, _, err := w.AppendCase(ctx, "k", entry("r"), &solidarity.CaseWrite{
			Insert: []*solidarity.CaseRecord{ins}, Update: []*solidarity.CaseRecord{upd}}, nil)
		if name == "refused" && !errors.Is(err, refused) {
			t.Fatalf("%s: %v", name, err)
		}
		if ins.Version != 0 || upd.Version != 3 {
			t.Fatalf("%s: versions set to %d %d", name, ins.Version, upd.Version)
		}
	}
}

func TestCaseWriteInvalid(t *testing.T) {
	ctx := context.Background()
	w, taken := caseDB(t, func(*groupcommit.Request) (bool, error) { return false, nil })
	c := func(id solidarity.CaseID) *solidarity.CaseRecord { return &solidarity.CaseRecord{ID: id, Version: 1} }
	for name, cw := range map[string]*solidarity.CaseWrite{
		"arrival without ID": {Arrival: &solidarity.Arrival{}},
		"nil insert":         {Insert: []*solidarity.CaseRecord{nil}},
		"insert without ID":  {Insert: []*solidarity.CaseRecord{c("")}},
		"nil update":         {Update: []*solidarity.CaseRecord{nil}},
		"inserted twice":     {Insert: []*solidarity.CaseRecord{c("C-1"), c("C-1")}},
		"updated twice":      {Update: []*solidarity.CaseRecord{c("C-1"), c("C-1")}},
		"inserted, updated":  {Insert: []*solidarity.CaseRecord{c("C-1")}, Update: []*solidarity.CaseRecord{c("C-1")}},
	} {
		_, _, err := w.AppendCase(ctx, "", entry("r"), cw, nil)
		if solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Fatalf("%s: %v, want EINVALID", name, err)
		}
	}
	if len(*taken) != 0 {
		t.Fatalf("invalid writes were taken: %v", *taken)
	}
}
