package scenario_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/internal/scenario"
	"solidarity/rules"
)

const seed = 2018

// all returns every person of the scenario with the arrival it came with.
func all(lists []arrival.List) (ps []arrival.Person, at []solidarity.Arrival) {
	for _, l := range lists {
		for _, p := range l.Persons {
			ps = append(ps, p)
			at = append(at, l.Arrival)
		}
	}
	return ps, at
}

func TestDiciottiCounts(t *testing.T) {
	lists := scenario.Diciotti(seed)
	want := []struct {
		port    string
		persons int
	}{{"Lampedusa", 13}, {"Catania", 27}, {"Catania", 13}, {"Catania", 137}}
	if len(lists) != len(want) {
		t.Fatalf("%d lists, want %d", len(lists), len(want))
	}
	ammr := rules.DefaultParams().AMMRApplies
	total, catania := 0, 0
	ids := map[solidarity.ArrivalID]bool{}
	for i, l := range lists {
		a := l.Arrival
		if a.Port != want[i].port || len(l.Persons) != want[i].persons || a.Persons != len(l.Persons) {
			t.Errorf("landing %d: %s with %d persons (arrival says %d), want %s with %d", i+1, a.Port, len(l.Persons), a.Persons, want[i].port, want[i].persons)
		}
		if a.ID != solidarity.ArrivalID(fmt.Sprintf("ARR-2026-DICIOTTI-%d", i+1)) || ids[a.ID] {
			t.Errorf("landing %d: ID %q", i+1, a.ID)
		}
		ids[a.ID] = true
		if a.Vessel != scenario.Vessel || !a.SAR || a.Benefitting != "IT" {
			t.Errorf("landing %d: vessel %q, SAR %v, benefitting %q", i+1, a.Vessel, a.SAR, a.Benefitting)
		}
		if a.At.Location() != time.UTC || a.At.Year() != 2026 || a.At.Month() != time.August || a.At.Before(ammr) {
			t.Errorf("landing %d at %v: want UTC, August 2026, after the AMMR applies (%v)", i+1, a.At, ammr)
		}
		if i > 0 && !a.At.After(lists[i-1].Arrival.At) {
			t.Errorf("landing %d at %v is not after the one before", i+1, a.At)
		}
		row := scenario.Landings()[i]
		if row.ID != a.ID || row.Port != a.Port || !row.At.Equal(a.At) || row.Persons != a.Persons || row.Flag == "" || row.Source == "" {
			t.Errorf("landing %d: table %+v does not describe arrival %+v", i+1, row, a)
		}
		total += len(l.Persons)
		if a.Port == "Catania" {
			catania += len(l.Persons)
		}
	}
	if total != 190 || catania != 177 || total != len(lists[0].Persons)+catania {
		t.Errorf("%d persons, %d at Catania; want 190 = 13 + 177 and 177 = 27 + 13 + 137", total, catania)
	}
	if scenario.Rescued != 190 || scenario.AtCatania != 177 {
		t.Errorf("Rescued %d, AtCatania %d", scenario.Rescued, scenario.AtCatania)
	}

	ps, arr := all(lists)
	var minors, flags int
	for i, p := range ps {
		if p.UnaccompaniedMinor {
			minors++
			if arr[i].ID != lists[1].Arrival.ID {
				t.Errorf("%s: unaccompanied minor in %s", p.Ref, arr[i].ID)
			}
			if !p.Minor(arr[i].At) {
				t.Errorf("%s: unaccompanied minor who is not a minor on %v", p.Ref, arr[i].At)
			}
			if age := ageAt(p, arr[i].At); age < 14 || age > 17 {
				t.Errorf("%s: unaccompanied minor aged %d", p.Ref, age)
			}
			if p.Family != solidarity.FamilyID("F-"+p.Ref) {
				t.Errorf("%s: unaccompanied minor in family %s", p.Ref, p.Family)
			}
		}
		if p.SecurityFlag {
			flags++
			if arr[i].ID != lists[3].Arrival.ID || p.Sex != arrival.Male {
				t.Errorf("%s: flagged in %s, sex %s", p.Ref, arr[i].ID, p.Sex)
			}
		}
	}
	if minors != 27 || lists[1].Arrival.Minors != 27 {
		t.Errorf("%d unaccompanied minors (arrival says %d), want 27", minors, lists[1].Arrival.Minors)
	}
	if flags != 4 {
		t.Errorf("%d security flags, want 4", flags)
	}
	for _, i := range []int{0, 2} {
		for _, p := range lists[i].Persons {
			if !p.Medical {
				t.Errorf("%s in %s is not a medical case", p.Ref, lists[i].Arrival.ID)
			}
		}
	}
	women := 0
	for _, p := range lists[2].Persons {
		if p.Sex == arrival.Female {
			women++
		}
	}
	if women != 7 {
		t.Errorf("%d women among the medical disembarkations, want 7", women)
	}
}

// ageAt is the age in whole years on the day of at, from the birth date or the
// assessed age.
func ageAt(p arrival.Person, at time.Time) int {
	if p.BirthDate.IsZero() {
		return p.AssessedAge
	}
	y, m, d := at.UTC().Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	age := y - p.BirthDate.Year()
	if p.BirthDate.AddDate(age, 0, 0).After(day) {
		age--
	}
	return age
}

func TestDiciottiPeople(t *testing.T) {
	lists := scenario.Diciotti(seed)
	refs := map[string]bool{}
	names := map[string]bool{}
	families := map[solidarity.FamilyID]solidarity.ArrivalID{}
	size := map[solidarity.FamilyID]int{}
	ps, arr := all(lists)
	for i, p := range ps {
		if p.Ref == "" || refs[p.Ref] {
			t.Errorf("ref %q empty or repeated", p.Ref)
		}
		refs[p.Ref] = true
		if p.Name == "" || names[p.Name] {
			t.Errorf("%s: name %q empty or given twice", p.Ref, p.Name)
		}
		names[p.Name] = true
		if p.Family != "" {
			if a, ok := families[p.Family]; ok && a != arr[i].ID {
				t.Errorf("family %s in %s and %s", p.Family, a, arr[i].ID)
			}
			families[p.Family] = arr[i].ID
			size[p.Family]++
		}
		if p.BirthDate.IsZero() == (p.AssessedAge == 0) {
			t.Errorf("%s: want a birth date or an assessed age, not both or neither", p.Ref)
		}
		if !p.BirthDate.IsZero() && (!p.BirthDate.Before(arr[i].At) || p.BirthDate != p.BirthDate.Truncate(24*time.Hour) || p.BirthDate.Location() != time.UTC) {
			t.Errorf("%s: birth date %v: want a civil date before the landing", p.Ref, p.BirthDate)
		}
		if age := ageAt(p, arr[i].At); age < 1 || age > 70 || (!p.UnaccompaniedMinor && p.Family == solidarity.FamilyID("F-"+p.Ref) && age < 18) {
			t.Errorf("%s: aged %d", p.Ref, age)
		}
		if p.Sex != arrival.Female && p.Sex != arrival.Male {
			t.Errorf("%s: sex %q", p.Ref, p.Sex)
		}
		if len(p.Languages) == 0 {
			t.Errorf("%s: no language", p.Ref)
		}
		states := slices.Clone(p.Preferences)
		for _, r := range p.Relatives {
			states = append(states, r.State)
		}
		for _, d := range p.Documents {
			states = append(states, d.Issuer)
		}
		for _, d := range p.Diplomas {
			states = append(states, d.Issuer)
		}
		for _, s := range p.PriorStays {
			states = append(states, s.State)
			if !s.To.IsZero() && !s.To.Before(arr[i].At) {
				t.Errorf("%s: prior stay ends %v, not before the landing", p.Ref, s.To)
			}
		}
		for _, m := range states {
			if !m.Valid() {
				t.Errorf("%s: %q is not a Member State", p.Ref, m)
			}
		}
	}
	for f, n := range size {
		if strings.HasPrefix(string(f), "F-DIC-") {
			if n != 1 {
				t.Errorf("single person's family %s has %d members", f, n)
			}
			continue
		}
		if n < 2 || n > 4 {
			t.Errorf("family %s has %d members", f, n)
		}
	}
	if len(families) < 5 {
		t.Errorf("%d families, want a few", len(families))
	}
	for _, l := range lists {
		n := map[solidarity.FamilyID]bool{}
		for _, p := range l.Persons {
			if p.Family != "" {
				n[p.Family] = true
			}
		}
		if l.Arrival.Families != len(n) {
			t.Errorf("%s: arrival counts %d families, the list has %d", l.Arrival.ID, l.Arrival.Families, len(n))
		}
	}

	// A variety for the criteria: relatives, documents, diplomas, preferences.
	var relatives, documents, diplomas, preferences int
	for _, p := range ps {
		relatives += min(len(p.Relatives), 1)
		documents += min(len(p.Documents), 1)
		diplomas += min(len(p.Diplomas), 1)
		preferences += min(len(p.Preferences), 1)
	}
	if relatives < 5 || documents < 2 || diplomas < 1 || preferences < 20 {
		t.Errorf("%d with relatives, %d with documents, %d with diplomas, %d with preferences", relatives, documents, diplomas, preferences)
	}
}

func TestNationalityMix(t *testing.T) {
	mix := scenario.NationalityMix()
	sum := 0
	langs := map[string][]string{}
	for _, n := range mix {
		sum += n.Count
		langs[n.Code] = n.Languages
		if _, eu := solidarity.ParseMemberState(n.Code); eu || len(n.Code) != 2 || n.Name == "" || n.Flag == "" || n.Source == "" || len(n.Languages) == 0 {
			t.Errorf("row %+v", n)
		}
	}
	if sum != scenario.Rescued {
		t.Fatalf("the mix counts %d persons, want %d", sum, scenario.Rescued)
	}
	if mix[0].Code != "ER" || 2*mix[0].Count <= sum {
		t.Errorf("first row %s with %d of %d: want a majority of Eritreans", mix[0].Code, mix[0].Count, sum)
	}

	for _, seed := range []int64{seed, 1, -7} {
		ps, _ := all(scenario.Diciotti(seed))
		got := map[string]int{}
		for _, p := range ps {
			got[p.Nationality]++
			if !slices.Equal(p.Languages, langs[p.Nationality]) && !slices.Equal(p.Languages, append(slices.Clone(langs[p.Nationality]), "en")) {
				t.Errorf("seed %d, %s: %s speaking %v", seed, p.Ref, p.Nationality, p.Languages)
			}
		}
		for _, n := range mix {
			// The counts are exact, so the shares match to any rounding.
			share := float64(got[n.Code]) / float64(len(ps))
			want := float64(n.Count) / float64(sum)
			if got[n.Code] != n.Count || fmt.Sprintf("%.1f", 100*share) != fmt.Sprintf("%.1f", 100*want) {
				t.Errorf("seed %d: %d of nationality %s (%.1f%%), want %d (%.1f%%)", seed, got[n.Code], n.Code, 100*share, n.Count, 100*want)
			}
			delete(got, n.Code)
		}
		if len(got) != 0 {
			t.Errorf("seed %d: nationalities outside the mix: %v", seed, got)
		}
	}
}

func TestDiciottiDeterministic(t *testing.T) {
	a, b := scenario.Diciotti(seed), scenario.Diciotti(seed)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave different lists")
	}
	c := scenario.Diciotti(seed + 1)
	pa, _ := all(a)
	pc, _ := all(c)
	if len(pa) != len(pc) {
		t.Fatalf("%d and %d persons", len(pa), len(pc))
	}
	same := 0
	for i := range pa {
		if pa[i].Name == pc[i].Name {
			same++
		}
	}
	if same > 5 {
		t.Errorf("%d of %d names equal under another seed", same, len(pa))
	}
	for i := range a {
		if a[i].Arrival != c[i].Arrival || len(a[i].Persons) != len(c[i].Persons) {
			t.Errorf("landing %d differs under another seed: %+v, %d persons; %+v, %d persons", i+1, a[i].Arrival, len(a[i].Persons), c[i].Arrival, len(c[i].Persons))
		}
	}
	// The lists are fresh: changing one does not change the next.
	a[0].Persons[0].Languages[0] = "xx"
	if reflect.DeepEqual(a, scenario.Diciotti(seed)) {
		t.Error("lists share memory between calls")
	}
	if scenario.NationalityMix()[0].Languages[0] == "xx" {
		t.Error("the mix shares memory with the lists")
	}
}

// TestDiciottiValidate runs arrival's own check on every list, once arrival has one.
func TestDiciottiValidate(t *testing.T) {
	lists := scenario.Diciotti(seed)
	checked := false
	for i := range lists {
		v, ok := any(&lists[i]).(interface{ Validate() error })
		if !ok {
			t.Skip("arrival.List has no Validate method yet; TestDiciottiCounts and TestDiciottiPeople check the essentials")
		}
		checked = true
		if err := v.Validate(); err != nil {
			t.Errorf("%s: %v", lists[i].Arrival.ID, err)
		}
	}
	if !checked {
		t.Fatal("no list")
	}
}

// TestDiciottiApplicants converts every person with arrival.Person.Applicant, once
// arrival has it, checks the applicant with rules.Validate and runs the criteria.
func TestDiciottiApplicants(t *testing.T) {
	type plain interface {
		Applicant(solidarity.Arrival, time.Time) rules.Applicant
	}
	type checked interface {
		Applicant(solidarity.Arrival, time.Time) (rules.Applicant, error)
	}
	lists := scenario.Diciotti(seed)
	criteria := map[rules.Criterion]int{}
	responsible := map[solidarity.MemberState]int{}
	for _, l := range lists {
		registered := l.Arrival.At.Add(48 * time.Hour)
		for i := range l.Persons {
			p := &l.Persons[i]
			var a rules.Applicant
			switch c := any(p).(type) {
			case plain:
				a = c.Applicant(l.Arrival, registered)
			case checked:
				var err error
				if a, err = c.Applicant(l.Arrival, registered); err != nil {
					t.Errorf("%s: %v", p.Ref, err)
					continue
				}
			default:
				t.Skip("arrival.Person has no Applicant(solidarity.Arrival, time.Time) method yet")
			}
			if err := rules.Validate(a); err != nil {
				t.Errorf("%s: %v", p.Ref, err)
				continue
			}
			r := rules.Determine(a, rules.DefaultParams())
			criteria[r.Criterion]++
			responsible[r.Responsible]++
		}
	}
	t.Logf("criteria %v; responsible %v", criteria, responsible)
	if len(responsible) < 3 || len(criteria) < 4 {
		t.Errorf("the scenario reaches %d Member States by %d criteria: want a variety", len(responsible), len(criteria))
	}
}
