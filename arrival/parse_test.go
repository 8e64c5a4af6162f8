package arrival_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/rules"
)

// baseCSV is a small valid list. Lines: the header block 1–5, the header row 6, the
// persons P001–P003 on lines 7–9.
const baseCSV = `# vessel: Test Vessel
# port: Pozzallo
# at: 2024-09-14T05:40:00+02:00
# sar: true
# benefitting_state: IT
ref,family,name,birth_date,assessed_age,sex,nationality,languages,relatives,documents,diplomas,prior_stays,unaccompanied_minor,preferences
P001,K1,Ada Sample,1990-03-12,,F,ER,ti;en,spouse:DE:beneficiary,short-stay-visa:FR:2024-03-01:2024-03-30,DE:2010-07-01,EL:2019-05-01:2020-02-01,,DE
P002,K1,Lia Sample,2016-06-01,,F,ER,ti,parent:DE:beneficiary,,,,,DE
P003,,Yonas Placeholder,,16,M,ER,ti,sibling:SE:beneficiary,,,,true,SE;DE
`

// edit replaces the first old in baseCSV with new, failing if there is none.
func edit(tb testing.TB, pairs ...string) string {
	tb.Helper()
	s := baseCSV
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			tb.Fatalf("baseCSV has no %q", pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

func TestParseCSVValid(t *testing.T) {
	l, err := arrival.ParseList("base.csv", strings.NewReader(baseCSV))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Persons) != 3 || l.Arrival.Benefitting != "IT" || !l.Arrival.SAR || l.Arrival.Vessel != "Test Vessel" {
		t.Fatalf("arrival %+v, %d persons", l.Arrival, len(l.Persons))
	}
	p := l.Persons[0]
	want := time.Date(1990, 3, 12, 0, 0, 0, 0, time.UTC)
	if p.BirthDate != want || p.Family != "K1" || p.Sex != arrival.Female || p.Nationality != "ER" ||
		len(p.Languages) != 2 || len(p.Relatives) != 1 || p.Relatives[0].Relation != rules.Spouse ||
		len(p.Documents) != 1 || len(p.Diplomas) != 1 || len(p.PriorStays) != 1 || p.Preferences[0] != "DE" {
		t.Fatalf("person 1 read wrong: %s", encode(t, l))
	}
	if got := l.Persons[2].Family; got != "F-P003" {
		t.Fatalf("family of a person alone %q, want F-P003", got)
	}
	if !l.Persons[2].UnaccompaniedMinor || l.Persons[2].AssessedAge != 16 {
		t.Fatal("person 3 read wrong")
	}
	if err := l.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestParseCSVBad checks one case of each kind of bad input: the code, the line, the
// column and a fragment of the message.
func TestParseCSVBad(t *testing.T) {
	many := new(strings.Builder)
	many.WriteString(edit(t, "P003,,Yonas Placeholder,,16,M,ER,ti,sibling:SE:beneficiary,,,,true,SE;DE\n", ""))
	for i := range arrival.MaxPersons - 1 {
		fmt.Fprintf(many, "Q%d,,N,2000-01-01,,F,,,,,,,,\n", i)
	}
	bigNote := "P001,K1,Ada Sample,1990-03-12,,F,ER,ti;en,,,,,,\n" + strings.Repeat("#", arrival.MaxBytes)

	tests := []struct {
		name, in   string
		line       int
		field, msg string
	}{
		// The arrival.
		{"no vessel", edit(t, "# vessel: Test Vessel\n", ""), 1, "vessel", "vessel is missing"},
		{"empty port", edit(t, "# port: Pozzallo", "# port:"), 2, "port", "port is missing"},
		{"bad at", edit(t, "2024-09-14T05:40:00+02:00", "14/09/2024"), 3, "at", `at "14/09/2024" is not an RFC 3339 time`},
		{"no at", edit(t, "# at: 2024-09-14T05:40:00+02:00\n", ""), 1, "at", "at (the time of the disembarkation) is missing"},
		{"bad sar", edit(t, "# sar: true", "# sar: maybe"), 4, "sar", `sar "maybe" is not true or false`},
		{"not a member state", edit(t, "# benefitting_state: IT", "# benefitting_state: NO"), 5, "benefitting_state", `"NO" is not the Eurostat code of an EU Member State`},
		{"greece as GR", edit(t, "# benefitting_state: IT", "# benefitting_state: GR"), 5, "benefitting_state", "(Greece is EL)"},
		{"unknown header key", edit(t, "# sar: true", "# captain: Nemo"), 4, "", `header line "# captain: Nemo" is not "# key: value"`},
		{"header key twice", edit(t, "# sar: true", "# port: Catania"), 4, "port", "a second # port: line, the first is on line 2"},
		{"no persons", edit(t, "P001,K1,Ada Sample,1990-03-12,,F,ER,ti;en,spouse:DE:beneficiary,short-stay-visa:FR:2024-03-01:2024-03-30,DE:2010-07-01,EL:2019-05-01:2020-02-01,,DE\n", "",
			"P002,K1,Lia Sample,2016-06-01,,F,ER,ti,parent:DE:beneficiary,,,,,DE\n", "",
			"P003,,Yonas Placeholder,,16,M,ER,ti,sibling:SE:beneficiary,,,,true,SE;DE\n", ""), 6, "", "the list has no persons"},
		{"empty file", "", 1, "", "no header row"},
		{"only the header block", lines("# vessel: V", "# port: P"), 2, "", "no header row"},

		// The header row and the shape of rows.
		{"unknown column", edit(t, ",preferences\n", ",shoe_size\n"), 6, "shoe_size", `unknown column "shoe_size"`},
		{"column twice", edit(t, ",preferences\n", ",sex\n"), 6, "sex", "column sex appears twice"},
		{"column without a name", edit(t, ",preferences\n", ",\n"), 6, "", "column 14 has no name"},
		{"no name column", edit(t, "ref,family,name,", "ref,family,nom,"), 6, "nom", "unknown column"},
		{"no sex column", lines("# vessel: V", "# port: P", "# at: 2024-09-14T05:40:00Z", "# benefitting_state: IT", "ref,name,birth_date", "P1,A,2000-01-01"), 5, "sex", "missing column sex"},
		{"no age column", lines("# vessel: V", "# port: P", "# at: 2024-09-14T05:40:00Z", "# benefitting_state: IT", "ref,name,sex", "P1,A,F"), 5, "birth_date", "missing column birth_date or assessed_age"},
		{"ragged row", edit(t, ",,,,DE\n", ",,,DE\n"), 8, "", "row 2 has 13 fields, the header has 14"},
		{"bare quote", edit(t, "Lia Sample", `Lia "Sample"`), 8, "", "malformed CSV"},
		{"too many persons", many.String(), 6 + arrival.MaxPersons + 1, "", "more than 10000 persons"},
		{"too large", edit(t, "P002,K1", bigNote+"P002,K1"), 0, "", "larger than 10 MiB"},

		// Required fields and refs.
		{"no ref", edit(t, "P002,K1", ",K1"), 8, "ref", "row 2: ref is missing"},
		{"bad ref", edit(t, "P002,K1", "P 2,K1"), 8, "ref", `ref "P 2" is not 1 to 64 letters`},
		{"duplicate ref", edit(t, "P002,K1", "P001,K1"), 8, "ref", "row 2 (ref P001): duplicate ref P001, first on line 7"},
		{"no name", edit(t, "Lia Sample", " "), 8, "name", "row 2 (ref P002): name is missing"},
		{"control character in name", edit(t, "Lia Sample", "Lia\x07"), 8, "name", "name is not valid UTF-8 text without control characters"},
		{"no sex", edit(t, "2016-06-01,,F", "2016-06-01,,"), 8, "sex", "sex is missing"},
		{"bad sex", edit(t, "2016-06-01,,F", "2016-06-01,,female"), 8, "sex", `sex "female" is not F, M or X`},
		{"no birth date nor age", edit(t, "2016-06-01,,F", ",,F"), 8, "birth_date", "birth_date and assessed_age are both missing"},
		{"bad family", edit(t, "P002,K1", "P002,K 1"), 8, "family", `family "K 1" is not 1 to 80 letters`},
		{"family of one named by another", edit(t, "P002,K1", "P002,F-P003"), 8, "family", "family F-P003 is the family of one given to P003"},

		// Dates and ages.
		{"malformed birth date", edit(t, "2016-06-01", "2016-02-30"), 8, "birth_date", `birth_date "2016-02-30" is not a date (YYYY-MM-DD)`},
		{"birth after arrival", edit(t, "2016-06-01", "2024-09-15"), 8, "birth_date", "row 2 (ref P002): birth_date 2024-09-15 is after the arrival 2024-09-14"},
		{"born too long ago", edit(t, "2016-06-01", "1904-09-13"), 8, "birth_date", "more than 120 years before the arrival"},
		{"age not a number", edit(t, ",16,M", ",sixteen,M"), 9, "assessed_age", `assessed_age "sixteen" is not a whole number`},
		{"age negative", edit(t, ",16,M", ",-1,M"), 9, "assessed_age", `assessed_age "-1" is not a whole number`},
		{"age too high", edit(t, ",16,M", ",121,M"), 9, "assessed_age", "assessed_age 121 is not between 0 and 120"},
		{"document valid_to before valid_from", edit(t, "2024-03-01:2024-03-30", "2024-03-30:2024-03-01"), 7, "documents", "document 1: valid_to 2024-03-01 is before valid_from 2024-03-30"},
		{"document without a date", edit(t, "2024-03-01:2024-03-30", ":2024-03-30"), 7, "documents", "document 1: valid_from is missing"},
		{"document malformed date", edit(t, "2024-03-01:2024-03-30", "2024-3-1:2024-03-30"), 7, "documents", `document 1: valid_from "2024-3-1" is not a date`},
		{"diploma after arrival", edit(t, "DE:2010-07-01", "DE:2025-07-01"), 7, "diplomas", "diploma 1: issued 2025-07-01, after the arrival 2024-09-14"},
		{"stay ends before it begins", edit(t, "EL:2019-05-01:2020-02-01", "EL:2020-05-01:2020-02-01"), 7, "prior_stays", "prior stay 1: to 2020-02-01 is before from 2020-05-01"},
		{"stay after arrival", edit(t, "EL:2019-05-01:2020-02-01", "EL:2024-10-01:"), 7, "prior_stays", "prior stay 1: from 2024-10-01 is after the arrival"},

		// Codes.
		{"nationality not a country", edit(t, "2016-06-01,,F,ER", "2016-06-01,,F,ZZ"), 8, "nationality", `nationality "ZZ" is not an ISO 3166-1 alpha-2 country code`},
		{"nationality lower case", edit(t, "2016-06-01,,F,ER", "2016-06-01,,F,er"), 8, "nationality", `nationality "er"`},
		{"nationality alpha-3", edit(t, "2016-06-01,,F,ER", "2016-06-01,,F,ERI"), 8, "nationality", `nationality "ERI"`},
		{"nationality withdrawn", edit(t, "2016-06-01,,F,ER", "2016-06-01,,F,SU"), 8, "nationality", `nationality "SU"`},
		{"nationality of a member state", edit(t, "2016-06-01,,F,ER", "2016-06-01,,F,FR"), 8, "nationality", "is a Member State"},
		{"language upper case", edit(t, "ER,ti,parent", "ER,TI,parent"), 8, "languages", `language 1 "TI" is not an ISO 639 code`},
		{"language empty item", edit(t, "ti;en", "ti;;en"), 7, "languages", "language 2 is empty"},
		{"relation unknown", edit(t, "spouse:DE", "cousin:DE"), 7, "relatives", `relative 1: relation "cousin" is not one of spouse, partner`},
		{"relative state", edit(t, "spouse:DE", "spouse:XX"), 7, "relatives", `relative 1: state "XX" is not the Eurostat code`},
		{"relative status", edit(t, "spouse:DE:beneficiary", "spouse:DE:refugee"), 7, "relatives", `relative 1: status "refugee" is not one of beneficiary`},
		{"relative shape", edit(t, "spouse:DE:beneficiary", "spouse-DE"), 7, "relatives", `relative 1 "spouse-DE" is not relation:STATE:status[:ref]`},
		{"relative unknown person", edit(t, "sibling:SE:beneficiary", "sibling:IT:applicant:P099"), 9, "relatives", "relative 1: family link to unknown person P099"},
		{"relative is self", edit(t, "sibling:SE:beneficiary", "sibling:IT:applicant:P003"), 9, "relatives", "family link of P003 to itself"},
		{"relative needs a state", edit(t, "spouse:DE:beneficiary", "spouse::beneficiary"), 7, "relatives", "relatives[0].state: a beneficiary family member must be in a Member State"},
		{"document kind", edit(t, "short-stay-visa:FR", "passport:FR"), 7, "documents", `document 1: kind "passport" is not one of residence-document`},
		{"document issuer", edit(t, "short-stay-visa:FR", "short-stay-visa:CH"), 7, "documents", `document 1: issuer "CH" is not the Eurostat code`},
		{"diploma issuer", edit(t, "DE:2010-07-01", "UK:2010-07-01"), 7, "diplomas", `diploma 1: issuer "UK"`},
		{"stay state", edit(t, "EL:2019-05-01", "GR:2019-05-01"), 7, "prior_stays", `prior stay 1: state "GR" is not the Eurostat code`},
		{"preference unknown", edit(t, "true,SE;DE", "true,SE;NO"), 9, "preferences", `preference 2 "NO" is not the Eurostat code`},
		{"preference twice", edit(t, "true,SE;DE", "true,SE;SE"), 9, "preferences", "preference 2: SE is listed twice"},

		// Flags.
		{"bad flag", edit(t, "true,SE;DE", "maybe,SE;DE"), 9, "unaccompanied_minor", `unaccompanied_minor "maybe" is not true or false`},
		{"unaccompanied adult", edit(t, "EL:2019-05-01:2020-02-01,,DE", "EL:2019-05-01:2020-02-01,yes,DE"), 7, "unaccompanied_minor", "row 1 (ref P001): an unaccompanied minor must be under 18 on the arrival date 2024-09-14 (born 1990-03-12)"},
		{"unaccompanied by assessed age", edit(t, ",16,M", ",18,M"), 9, "unaccompanied_minor", "(assessed age 18)"},

		// Lines: a quoted cell over two lines moves the rows after it.
		{"line after a two-line cell", edit(t, "spouse:DE:beneficiary", "\"spouse:DE:beneficiary;\nchild:SE:applicant\"", "2016-06-01", "2024-12-01"), 9, "birth_date", "row 2 (ref P002): birth_date 2024-12-01"},
		{"line with blank lines and CRLF", strings.ReplaceAll(edit(t, "# sar: true\n", "# sar: true\n\n#\n", "2016-06-01", "2030-01-01"), "\n", "\r\n"), 10, "birth_date", "birth_date 2030-01-01 is after"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, parse := range []func(string, *strings.Reader) (*arrival.List, error){
				func(n string, r *strings.Reader) (*arrival.List, error) { return arrival.ParseList(n, r) },
				func(n string, r *strings.Reader) (*arrival.List, error) { return arrival.ParseCSV(n, r) },
			} {
				l, err := parse("ship.csv", strings.NewReader(tt.in))
				if err == nil {
					t.Fatal("no error")
				}
				if l != nil {
					t.Fatal("a list with the error")
				}
				e := asError(t, err, "ship.csv")
				if e.Line != tt.line || e.Field != tt.field || !strings.Contains(e.Message, tt.msg) {
					t.Fatalf("got line %d field %q message %q\nwant line %d field %q message with %q", e.Line, e.Field, e.Message, tt.line, tt.field, tt.msg)
				}
				if strings.Contains(e.Error(), "Sample") || strings.Contains(e.Error(), "Placeholder") {
					t.Fatalf("the error names a person: %v", e)
				}
			}
		})
	}
}

// baseJSON is baseCSV as JSON.
const baseJSON = `{
  "arrival": {"vessel": "Test Vessel", "port": "Pozzallo", "at": "2024-09-14T05:40:00+02:00", "sar": true, "benefitting_state": "IT"},
  "persons": [
    {"ref": "P001", "family": "K1", "name": "Ada Sample", "birth_date": "1990-03-12T00:00:00Z", "sex": "F", "nationality": "ER",
     "languages": ["ti", "en"], "relatives": [{"relation": "spouse", "state": "DE", "status": "beneficiary"}],
     "documents": [{"kind": "short-stay-visa", "issuer": "FR", "valid_from": "2024-03-01T00:00:00Z", "valid_to": "2024-03-30T00:00:00Z"}],
     "diplomas": [{"issuer": "DE", "issued": "2010-07-01T00:00:00Z"}],
     "prior_stays": [{"state": "EL", "from": "2019-05-01T00:00:00Z", "to": "2020-02-01T00:00:00Z"}],
     "preferences": ["DE"]},
    {"ref": "P002", "family": "K1", "name": "Lia Sample", "birth_date": "2016-06-01T00:00:00Z", "sex": "F", "nationality": "ER",
     "languages": ["ti"], "relatives": [{"relation": "parent", "state": "DE", "status": "beneficiary"}], "preferences": ["DE"]},
    {"ref": "P003", "name": "Yonas Placeholder", "assessed_age": 16, "sex": "M", "nationality": "ER", "languages": ["ti"],
     "relatives": [{"relation": "sibling", "state": "SE", "status": "beneficiary"}], "unaccompanied_minor": true, "preferences": ["SE", "DE"]}
  ]
}
`

func editJSON(tb testing.TB, pairs ...string) string {
	tb.Helper()
	s := baseJSON
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			tb.Fatalf("baseJSON has no %q", pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

func TestParseJSONTwinOfCSV(t *testing.T) {
	c, err := arrival.ParseCSV("base.csv", strings.NewReader(baseCSV))
	if err != nil {
		t.Fatal(err)
	}
	j, err := arrival.ParseList("base.json", strings.NewReader(baseJSON))
	if err != nil {
		t.Fatal(err)
	}
	sameList(t, j, c)
}

// TestParseJSONBad checks the JSON decoding errors and that the checks of Validate
// name the JSON path.
func TestParseJSONBad(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{"arrival": {"vessel": "V"}, "persons": [`)
	for i := range arrival.MaxPersons + 1 {
		if i > 0 {
			many.WriteString(",")
		}
		many.WriteString("{}")
	}
	many.WriteString("]}")

	tests := []struct {
		name, in   string
		line       int
		field, msg string
	}{
		{"syntax", editJSON(t, `"sex": "M",`, `"sex": "M"`), 12, "", "malformed JSON: invalid character"},
		{"truncated", baseJSON[:200], 4, "", "malformed JSON: unexpected end of the file"},
		{"trailing data", baseJSON + "{}", 16, "", "data after the JSON object"},
		{"persons not an array", `{"persons": {}}`, 0, "persons", "want an array, got {}"},
		{"unknown top-level field", editJSON(t, `"persons": [`, `"crew": 3, "persons": [`), 0, "crew", "unknown field"},
		{"unknown person field", editJSON(t, `"name": "Lia Sample"`, `"nmae": "Lia Sample"`), 0, "persons[1].nmae", "unknown field"},
		{"field in another case", editJSON(t, `"name": "Lia Sample"`, `"Name": "Lia Sample"`), 0, "persons[1].Name", "unknown field"},
		{"unknown nested field", editJSON(t, `"relation": "parent"`, `"relation": "parent", "phone": "x"`), 0, "persons[1].relatives[0].phone", "unknown field"},
		{"field twice", editJSON(t, `"sex": "M"`, `"sex": "M", "sex": "F"`), 0, "persons[2].sex", "field given twice"},
		{"wrong type", editJSON(t, `"assessed_age": 16`, `"assessed_age": "16"`), 0, "persons[2].assessed_age", `want a whole number, got "16"`},
		{"fraction", editJSON(t, `"assessed_age": 16`, `"assessed_age": 16.5`), 0, "persons[2].assessed_age", "want a whole number, got 16.5"},
		{"bad time", editJSON(t, `"birth_date": "2016-06-01T00:00:00Z"`, `"birth_date": "2016-06-01"`), 0, "persons[1].birth_date", "want an RFC 3339 time"},
		{"wrong element type", editJSON(t, `"languages": ["ti"]`, `"languages": ["ti", 7]`), 0, "persons[1].languages[1]", "want a string, got 7"},
		{"arrival set at registration", editJSON(t, `"vessel": "Test Vessel"`, `"id": "A-1", "vessel": "Test Vessel"`), 0, "arrival.id", "id is set at registration"},
		{"case set", editJSON(t, `"ref": "P002"`, `"case": "C-9", "ref": "P002"`), 0, "persons[1].case", "case IDs are given at registration"},
		{"too many persons", many.String(), 0, "persons", "more than 10000 persons"},
		{"too large", `{"arrival": {"vessel": "` + strings.Repeat("x", arrival.MaxBytes) + `"}}`, 0, "", "larger than 10 MiB"},

		// The checks of Validate, located by JSON path.
		{"no arrival", `{"persons": []}`, 0, "arrival.vessel", "vessel is missing"},
		{"no persons", editJSON(t, `"persons": [`, `"persons": [], "x": [`), 0, "x", "unknown field"},
		{"empty persons", `{"arrival": {"vessel": "V", "port": "P", "at": "2024-09-14T05:40:00Z", "benefitting_state": "IT"}, "persons": []}`, 0, "persons", "the list has no persons"},
		{"benefitting state", editJSON(t, `"benefitting_state": "IT"`, `"benefitting_state": "it"`), 0, "arrival.benefitting_state", `"it" is not the Eurostat code`},
		{"birth after arrival", editJSON(t, `"2016-06-01T00:00:00Z"`, `"2024-09-15T00:00:00Z"`), 0, "persons[1].birth_date", "person 2 (ref P002): birth_date 2024-09-15 is after the arrival 2024-09-14"},
		{"birth in a zone", editJSON(t, `"2016-06-01T00:00:00Z"`, `"2024-09-15T00:30:00+02:00"`), 0, "persons[1].birth_date", "birth_date 2024-09-15 is after the arrival"},
		{"duplicate ref", editJSON(t, `"ref": "P002"`, `"ref": "P001"`), 0, "persons[1].ref", "duplicate ref P001, first at persons[0]"},
		{"relation", editJSON(t, `"relation": "parent"`, `"relation": "uncle"`), 0, "persons[1].relatives[0].relation", `relation "uncle"`},
		{"unknown link", editJSON(t, `"relation": "parent", "state": "DE", "status": "beneficiary"`, `"relation": "sibling", "state": "IT", "status": "applicant", "ref": "P099"`), 0, "persons[1].relatives[0].ref", "family link to unknown person P099"},
		{"dependency (rules.Validate)", editJSON(t, `"relation": "parent"`, `"relation": "parent", "dependency": "homesick"`), 0, "persons[1].relatives[0].dependency", "is not a ground of dependency"},
		{"document withdrawn before issue (rules.Validate)", editJSON(t, `"valid_to": "2024-03-30T00:00:00Z"`, `"valid_to": "2024-03-30T00:00:00Z", "withdrawn": "2024-01-01T00:00:00Z"`), 0, "persons[0].documents[0].withdrawn", "withdrawn 2024-01-01, before"},
		{"nationality", editJSON(t, `"nationality": "ER",
     "languages": ["ti"]`, `"nationality": "EU",
     "languages": ["ti"]`), 0, "persons[1].nationality", `nationality "EU"`},
		{"unaccompanied adult", editJSON(t, `"assessed_age": 16`, `"assessed_age": 19`), 0, "persons[2].unaccompanied_minor", "must be under 18"},
		{"family collision", editJSON(t, `"family": "K1", "name": "Lia Sample"`, `"family": "F-P003", "name": "Lia Sample"`), 0, "persons[1].family", "family F-P003 is the family of one given to P003"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, parse := range []func(string, *strings.Reader) (*arrival.List, error){
				func(n string, r *strings.Reader) (*arrival.List, error) { return arrival.ParseList(n, r) },
				func(n string, r *strings.Reader) (*arrival.List, error) { return arrival.ParseJSON(n, r) },
			} {
				l, err := parse("ship.json", strings.NewReader(tt.in))
				if err == nil {
					t.Fatal("no error")
				}
				if l != nil {
					t.Fatal("a list with the error")
				}
				e := asError(t, err, "ship.json")
				if e.Line != tt.line || e.Field != tt.field || !strings.Contains(e.Message, tt.msg) {
					t.Fatalf("got line %d field %q message %q\nwant line %d field %q message with %q", e.Line, e.Field, e.Message, tt.line, tt.field, tt.msg)
				}
				if strings.Contains(e.Error(), "Sample") || strings.Contains(e.Error(), "Placeholder") {
					t.Fatalf("the error names a person: %v", e)
				}
			}
		})
	}
}

// TestValidateBuilt checks Validate on lists built in code: no file, no line, the JSON
// path, the first problem only.
func TestValidateBuilt(t *testing.T) {
	good := func() *arrival.List {
		l, err := arrival.ParseCSV("base.csv", strings.NewReader(baseCSV))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	tests := []struct {
		name       string
		change     func(l *arrival.List)
		field, msg string
	}{
		{"valid", func(*arrival.List) {}, "", ""},
		{"no family", func(l *arrival.List) { l.Persons[2].Family = "" }, "persons[2].family", "family is missing"},
		{"not a civil date", func(l *arrival.List) {
			l.Persons[1].BirthDate = time.Date(2016, 6, 1, 12, 0, 0, 0, time.UTC)
		}, "persons[1].birth_date", "is not a date (midnight UTC"},
		{"a relative's date in a zone", func(l *arrival.List) {
			l.Persons[0].Relatives[0].BirthDate = time.Date(1988, 1, 1, 0, 0, 0, 0, time.FixedZone("", 3600))
		}, "persons[0].relatives[0].birth_date", "relative 1: birth_date"},
		{"first problem only", func(l *arrival.List) {
			l.Persons[2].Sex = "?"
			l.Persons[1].Name = ""
		}, "persons[1].name", "person 2 (ref P002): name is missing"},
		{"arrival before persons", func(l *arrival.List) {
			l.Persons[0].Ref = ""
			l.Arrival.Port = ""
		}, "arrival.port", "port is missing"},
		{"long name", func(l *arrival.List) { l.Persons[0].Name = strings.Repeat("n", 201) }, "persons[0].name", "longer than 200"},
		{"too many persons", func(l *arrival.List) {
			l.Persons = make([]arrival.Person, arrival.MaxPersons+1)
		}, "persons", "more than 10000"},
		{"negative age", func(l *arrival.List) { l.Persons[2].AssessedAge = -1 }, "persons[2].assessed_age", "-1 is not between 0 and 120"},
		{"registration data is fine", func(l *arrival.List) {
			l.Arrival.ID, l.Arrival.Persons = "A-1", 3
			l.Persons[0].Case = "C-1"
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := good()
			tt.change(l)
			err := l.Validate()
			if tt.field == "" && tt.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			e := asError(t, err, "")
			if e.Line != 0 || e.Field != tt.field || !strings.Contains(e.Message, tt.msg) {
				t.Fatalf("got line %d field %q message %q\nwant field %q message with %q", e.Line, e.Field, e.Message, tt.field, tt.msg)
			}
		})
	}
}

func TestParseJSONNotAnObject(t *testing.T) {
	_, err := arrival.ParseJSON("ship.json", strings.NewReader(" [1, 2]"))
	if e := asError(t, err, "ship.json"); e.Field != "" || e.Message != "want an object, got [1, 2]" {
		t.Fatalf("got %v", e)
	}
	// ParseList reads it as CSV: a bad column.
	_, err = arrival.ParseList("ship.csv", strings.NewReader(" [1, 2]"))
	if e := asError(t, err, "ship.csv"); e.Line != 1 || !strings.Contains(e.Message, "unknown column") {
		t.Fatalf("got %v", e)
	}
}

func TestValidNationality(t *testing.T) {
	for _, s := range []string{"ER", "SY", "AF", "PS", "XK", "SS", "CW", "TW", "EH"} {
		if !arrival.ValidNationality(s) {
			t.Errorf("%s refused", s)
		}
	}
	for _, s := range []string{"", "E", "er", "Er", "ERI", "ZZ", "EU", "UN", "EZ", "UK", "SU", "YU", "CS", "AN", "DD", "FX", "QO", "AA", "XX", "EL", "1A", "É"} {
		if arrival.ValidNationality(s) {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestWriteRefusesWhatCSVCannotHold(t *testing.T) {
	l, err := arrival.ParseJSON("base.json", strings.NewReader(editJSON(t, `"relation": "parent"`, `"relation": "parent", "source": "birth certificate"`)))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	e := asError(t, l.WriteCSV(&b), "")
	if e.Field != "persons[1].relatives[0]" || b.Len() != 0 {
		t.Fatalf("got %v, %d bytes written", e, b.Len())
	}
	// JSON holds it.
	again, err := arrival.ParseJSON("again.json", bytes.NewReader(writeJSON(t, l)))
	if err != nil {
		t.Fatal(err)
	}
	sameList(t, again, l)

	// An invalid list is written in neither format.
	l.Persons[0].Sex = ""
	if err := l.WriteJSON(&b); solidarity.ErrorCode(err) != solidarity.EINVALID || b.Len() != 0 {
		t.Fatalf("WriteJSON of an invalid list: %v", err)
	}
}
