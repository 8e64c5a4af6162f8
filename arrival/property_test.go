package arrival_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/arrival"
	"solidarity/rules"
)

var (
	someStates    = []solidarity.MemberState{"IT", "EL", "ES", "MT", "DE", "FR", "SE", "NL", "CY"}
	nationalities = []string{"", "ER", "SY", "AF", "NG", "SD", "TN", "BD", "ML", "GN", "CI", "XK", "PS", "SO"}
	languages     = []string{"ti", "ar", "en", "fr", "prs", "ps", "so", "ku", "tir"}
	relations     = []rules.Relation{rules.Spouse, rules.Partner, rules.Child, rules.Parent, rules.ResponsibleAdult, rules.Sibling, rules.Relative}
	statuses      = []rules.Status{rules.StatusBeneficiary, rules.StatusApplicant, rules.StatusLegallyPresent, rules.StatusIrregular, rules.StatusUnknown}
	kinds         = []rules.DocumentKind{rules.ResidenceDocument, rules.LongStayVisa, rules.ShortStayVisa, rules.AirportTransitVisa}
	// Letters of several scripts, and characters CSV must quote.
	nameRunes = []rune("abcdeklmnorstuyzéøßğışАБВабвأبتثسلمሀለሐመሠ李王张,\"'-")
)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func daysBefore(t *rapid.T, day time.Time, maxDays int, label string) time.Time {
	return day.AddDate(0, 0, -rapid.IntRange(0, maxDays).Draw(t, label))
}

// genList draws a list that passes Validate, in the form the parsers give (families
// assigned, text trimmed, empty lists nil).
func genList(t *rapid.T) *arrival.List {
	zone := time.FixedZone("", 3600*rapid.IntRange(-2, 3).Draw(t, "zone"))
	at := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rapid.IntRange(0, 15*365*24*60).Draw(t, "at")) * time.Minute).In(zone)
	l := &arrival.List{Arrival: solidarity.Arrival{
		Vessel:      rapid.SampledFrom([]string{"Example Star", "Nave Prova, 2", "Ωmega", "Sea-Test #7: night"}).Draw(t, "vessel"),
		Port:        rapid.SampledFrom([]string{"Pozzallo", "Lampedusa", "Málaga", "Chania"}).Draw(t, "port"),
		At:          at,
		SAR:         rapid.Bool().Draw(t, "sar"),
		Benefitting: rapid.SampledFrom(someStates).Draw(t, "benefitting"),
	}}
	day := date(at.Year(), at.Month(), at.Day())
	n := rapid.IntRange(1, 12).Draw(t, "persons")
	for i := range n {
		p := arrival.Person{
			Ref:    fmt.Sprintf("%s%03d", rapid.SampledFrom([]string{"P", "W-", "x.", "7/"}).Draw(t, "prefix"), i),
			Family: solidarity.FamilyID(rapid.SampledFrom([]string{"", "", "K1", "K2", "fam.3"}).Draw(t, "family")),
			Sex:    rapid.SampledFrom([]arrival.Sex{arrival.Female, arrival.Male, arrival.OtherSx}).Draw(t, "sex"),
		}
		var words []string
		for range rapid.IntRange(1, 3).Draw(t, "words") {
			words = append(words, rapid.StringOfN(rapid.RuneFrom(nameRunes), 1, 12, -1).Draw(t, "word"))
		}
		p.Name = strings.Join(words, " ")
		if p.Family == "" {
			p.Family = solidarity.FamilyID("F-" + p.Ref)
		}
		if rapid.IntRange(0, 3).Draw(t, "assessed?") == 0 {
			p.AssessedAge = rapid.IntRange(1, 120).Draw(t, "age")
		} else {
			p.BirthDate = daysBefore(t, day, 120*365, "birth")
		}
		if rapid.Bool().Draw(t, "both?") && p.AssessedAge == 0 {
			p.AssessedAge = rapid.IntRange(1, 120).Draw(t, "age2")
		}
		p.UnaccompaniedMinor = p.Minor(day) && rapid.Bool().Draw(t, "uam")
		p.Nationality = rapid.SampledFrom(nationalities).Draw(t, "nationality")
		if k := rapid.IntRange(0, 3).Draw(t, "languages"); k > 0 {
			p.Languages = rapid.SliceOfNDistinct(rapid.SampledFrom(languages), k, k, func(s string) string { return s }).Draw(t, "langs")
		}
		for range rapid.IntRange(0, 3).Draw(t, "relatives") {
			r := rules.FamilyMember{
				Relation: rapid.SampledFrom(relations).Draw(t, "relation"),
				Status:   rapid.SampledFrom(statuses).Draw(t, "status"),
			}
			if r.Status != rules.StatusUnknown && r.Status != rules.StatusIrregular || rapid.Bool().Draw(t, "state?") {
				r.State = rapid.SampledFrom(someStates).Draw(t, "state")
			}
			if i > 0 && rapid.IntRange(0, 3).Draw(t, "link?") == 0 {
				r.Ref = l.Persons[rapid.IntRange(0, i-1).Draw(t, "link")].Ref
			}
			p.Relatives = append(p.Relatives, r)
		}
		for range rapid.IntRange(0, 2).Draw(t, "documents") {
			from := daysBefore(t, day, 3000, "valid_from")
			p.Documents = append(p.Documents, rules.Document{
				Kind: rapid.SampledFrom(kinds).Draw(t, "kind"), Issuer: rapid.SampledFrom(someStates).Draw(t, "issuer"),
				ValidFrom: from, ValidTo: from.AddDate(0, 0, rapid.IntRange(0, 2000).Draw(t, "validity")),
			})
		}
		for range rapid.IntRange(0, 2).Draw(t, "diplomas") {
			p.Diplomas = append(p.Diplomas, rules.Diploma{Issuer: rapid.SampledFrom(someStates).Draw(t, "diploma.issuer"), Issued: daysBefore(t, day, 9000, "issued")})
		}
		for range rapid.IntRange(0, 2).Draw(t, "stays") {
			s := rules.Stay{State: rapid.SampledFrom(someStates).Draw(t, "stay.state"), From: daysBefore(t, day, 4000, "stay.from")}
			if rapid.Bool().Draw(t, "ended?") {
				s.To = s.From.AddDate(0, 0, rapid.IntRange(0, 800).Draw(t, "stay.days"))
			}
			p.PriorStays = append(p.PriorStays, s)
		}
		p.Medical = rapid.IntRange(0, 4).Draw(t, "medical") == 0
		p.SecurityFlag = rapid.IntRange(0, 9).Draw(t, "security") == 0
		p.OtherVulnerability = rapid.SampledFrom([]string{"", "", "pregnant", "survivor of torture; needs \"care\", urgently"}).Draw(t, "note")
		if k := rapid.IntRange(0, 3).Draw(t, "preferences"); k > 0 {
			p.Preferences = rapid.SliceOfNDistinct(rapid.SampledFrom(someStates), k, k, func(m solidarity.MemberState) solidarity.MemberState { return m }).Draw(t, "prefs")
		}
		l.Persons = append(l.Persons, p)
	}
	return l
}

// TestPropertyValidListsPass: a drawn valid list validates, reads back the same from
// the JSON and the CSV it writes, and each person's applicant passes rules.Validate.
func TestPropertyValidListsPass(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genList(t)
		if err := l.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, write := range []func(*bytes.Buffer) error{
			func(b *bytes.Buffer) error { return l.WriteJSON(b) },
			func(b *bytes.Buffer) error { return l.WriteCSV(b) },
		} {
			var b bytes.Buffer
			if err := write(&b); err != nil {
				t.Fatal(err)
			}
			back, err := arrival.ParseList("drawn", &b)
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			sameList(t, back, l)
		}
		registered := l.Arrival.At.AddDate(0, 0, rapid.IntRange(0, 30).Draw(t, "registered"))
		for i := range l.Persons {
			if err := rules.Validate(l.Persons[i].Applicant(l.Arrival, registered)); err != nil {
				t.Fatalf("%s: %v", l.Persons[i].Ref, err)
			}
		}
	})
}

// mutation makes one field of a valid person invalid, in the struct and in the CSV
// cells (column → text) that carry it.
type mutation struct {
	field string                                                     // JSON path within the person
	apply func(t *rapid.T, l *arrival.List, k int) map[string]string // changes person k; returns the CSV cells
}

var mutations = []mutation{
	{"birth_date", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		d := arrivalDay(l).AddDate(0, 0, rapid.IntRange(1, 5000).Draw(t, "after"))
		l.Persons[k].BirthDate = d
		return map[string]string{"birth_date": d.Format("2006-01-02")}
	}},
	{"birth_date", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		d := arrivalDay(l).AddDate(-120, 0, -rapid.IntRange(1, 5000).Draw(t, "before"))
		l.Persons[k].BirthDate = d
		return map[string]string{"birth_date": d.Format("2006-01-02")}
	}},
	{"assessed_age", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		a := rapid.IntRange(121, 999).Draw(t, "age")
		l.Persons[k].AssessedAge = a
		return map[string]string{"assessed_age": fmt.Sprint(a)}
	}},
	{"ref", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		r := rapid.SampledFrom([]string{"", "P 1", "-x", "a:b", strings.Repeat("r", 65)}).Draw(t, "ref")
		l.Persons[k].Ref = r
		return map[string]string{"ref": r}
	}},
	{"name", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		l.Persons[k].Name = ""
		return map[string]string{"name": ""}
	}},
	{"sex", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		s := rapid.SampledFrom([]string{"", "Q", "female", "FM"}).Draw(t, "sex")
		l.Persons[k].Sex = arrival.Sex(s)
		return map[string]string{"sex": s}
	}},
	{"nationality", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		s := rapid.SampledFrom([]string{"ZZ", "EU", "SU", "er", "ERI", "DE", "EL", "UK"}).Draw(t, "nationality")
		l.Persons[k].Nationality = s
		return map[string]string{"nationality": s}
	}},
	{"languages[0]", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		s := rapid.SampledFrom([]string{"EN", "e", "engl", "t1"}).Draw(t, "language")
		l.Persons[k].Languages = []string{s}
		return map[string]string{"languages": s}
	}},
	{"relatives[0].relation", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		l.Persons[k].Relatives = []rules.FamilyMember{{Relation: "cousin", State: "DE", Status: rules.StatusApplicant}}
		return map[string]string{"relatives": "cousin:DE:applicant"}
	}},
	{"relatives[0].state", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		l.Persons[k].Relatives = []rules.FamilyMember{{Relation: rules.Spouse, State: "CH", Status: rules.StatusApplicant}}
		return map[string]string{"relatives": "spouse:CH:applicant"}
	}},
	{"relatives[0].status", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		l.Persons[k].Relatives = []rules.FamilyMember{{Relation: rules.Spouse, State: "DE", Status: "refugee"}}
		return map[string]string{"relatives": "spouse:DE:refugee"}
	}},
	{"relatives[0].ref", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		l.Persons[k].Relatives = []rules.FamilyMember{{Relation: rules.Sibling, State: "DE", Status: rules.StatusApplicant, Ref: "ZZ999"}}
		return map[string]string{"relatives": "sibling:DE:applicant:ZZ999"}
	}},
	{"documents[0].valid_to", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		from := arrivalDay(l).AddDate(0, 0, -rapid.IntRange(0, 900).Draw(t, "from"))
		to := from.AddDate(0, 0, -rapid.IntRange(1, 900).Draw(t, "back"))
		l.Persons[k].Documents = []rules.Document{{Kind: rules.LongStayVisa, Issuer: "FR", ValidFrom: from, ValidTo: to}}
		return map[string]string{"documents": "long-stay-visa:FR:" + from.Format("2006-01-02") + ":" + to.Format("2006-01-02")}
	}},
	{"documents[0].issuer", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		d := arrivalDay(l).AddDate(-1, 0, 0)
		l.Persons[k].Documents = []rules.Document{{Kind: rules.LongStayVisa, Issuer: "NO", ValidFrom: d, ValidTo: d}}
		return map[string]string{"documents": "long-stay-visa:NO:" + d.Format("2006-01-02") + ":" + d.Format("2006-01-02")}
	}},
	{"diplomas[0].issued", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		d := arrivalDay(l).AddDate(0, 0, rapid.IntRange(1, 900).Draw(t, "after"))
		l.Persons[k].Diplomas = []rules.Diploma{{Issuer: "DE", Issued: d}}
		return map[string]string{"diplomas": "DE:" + d.Format("2006-01-02")}
	}},
	{"prior_stays[0].to", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		from := arrivalDay(l).AddDate(0, 0, -rapid.IntRange(0, 900).Draw(t, "from"))
		to := from.AddDate(0, 0, -rapid.IntRange(1, 900).Draw(t, "back"))
		l.Persons[k].PriorStays = []rules.Stay{{State: "EL", From: from, To: to}}
		return map[string]string{"prior_stays": "EL:" + from.Format("2006-01-02") + ":" + to.Format("2006-01-02")}
	}},
	{"unaccompanied_minor", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		p := &l.Persons[k]
		p.BirthDate, p.AssessedAge, p.UnaccompaniedMinor = time.Time{}, rapid.IntRange(18, 60).Draw(t, "adult"), true
		return map[string]string{"birth_date": "", "assessed_age": fmt.Sprint(p.AssessedAge), "unaccompanied_minor": "yes"}
	}},
	{"preferences[0]", func(t *rapid.T, l *arrival.List, k int) map[string]string {
		l.Persons[k].Preferences = []solidarity.MemberState{"GR"}
		return map[string]string{"preferences": "GR"}
	}},
}

func arrivalDay(l *arrival.List) time.Time {
	at := l.Arrival.At
	return date(at.Year(), at.Month(), at.Day())
}

// TestPropertyOneBadFieldIsNamed: making one field of one person of a valid list
// invalid makes Validate, ParseJSON and ParseCSV reject the list, naming that field
// (its JSON path; for CSV its column, and the person's line).
func TestPropertyOneBadFieldIsNamed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genList(t)
		var csvText bytes.Buffer
		if err := l.WriteCSV(&csvText); err != nil {
			t.Fatal(err)
		}
		k := rapid.IntRange(0, len(l.Persons)-1).Draw(t, "person")
		m := rapid.SampledFrom(mutations).Draw(t, "mutation")
		cells := m.apply(t, l, k)
		path := fmt.Sprintf("persons[%d].%s", k, m.field)
		column, _, _ := strings.Cut(m.field, "[")

		e := asError(t, l.Validate(), "")
		if e.Field != path || e.Line != 0 {
			t.Fatalf("Validate: field %q line %d (%s), want %q", e.Field, e.Line, e.Message, path)
		}

		data, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		back, err := arrival.ParseJSON("bad.json", bytes.NewReader(data))
		if e := asError(t, err, "bad.json"); back != nil || e.Field != path || e.Line != 0 {
			t.Fatalf("ParseJSON: field %q line %d (%s), want %q", e.Field, e.Line, e.Message, path)
		}

		// The CSV: the same cells changed in the text WriteCSV wrote for the valid list.
		header, rest, _ := strings.Cut(csvText.String(), "\nref,")
		records, err := csv.NewReader(strings.NewReader("ref," + rest)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for col, text := range cells {
			records[k+1][indexOf(records[0], col)] = text
		}
		var out bytes.Buffer
		out.WriteString(header + "\n")
		w := csv.NewWriter(&out)
		if err := w.WriteAll(records); err != nil {
			t.Fatal(err)
		}
		back, err = arrival.ParseCSV("bad.csv", &out)
		line := strings.Count(header, "\n") + 1 + 1 + k + 1 // header block, header row, row k+1
		if e := asError(t, err, "bad.csv"); back != nil || e.Field != column || e.Line != line {
			t.Fatalf("ParseCSV: field %q line %d (%s), want %q line %d", e.Field, e.Line, e.Message, column, line)
		}
	})
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	panic("no column " + v)
}
