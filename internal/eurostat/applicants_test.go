package eurostat_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/eurostat"
)

// fixtureApplicants are the first-time figures every migr_asyappctzm fixture holds,
// in ParseApplicants' order ("-" is the TOTAL row, Citizen ""). DE UNK 2025-02 and IT
// UNK are missing in the files and must not appear; IT STLS is a real 0.
const fixtureApplicants = `
2025-01 DE - 6500; 2025-01 DE AF 900; 2025-01 DE BD 20; 2025-01 DE STLS 40; 2025-01 DE SY 1500; 2025-01 DE UNK 15
2025-01 EL - 3200; 2025-01 EL AF 700; 2025-01 EL BD 150; 2025-01 EL STLS 10; 2025-01 EL SY 450; 2025-01 EL UNK 5
2025-01 IT - 9800; 2025-01 IT AF 60; 2025-01 IT BD 2300; 2025-01 IT STLS 0; 2025-01 IT SY 120
2025-02 DE - 6100; 2025-02 DE AF 850; 2025-02 DE BD 25; 2025-02 DE STLS 35; 2025-02 DE SY 1400
2025-02 EL - 2900; 2025-02 EL AF 650; 2025-02 EL BD 140; 2025-02 EL STLS 5; 2025-02 EL SY 400; 2025-02 EL UNK 10
2025-02 IT - 9100; 2025-02 IT AF 70; 2025-02 IT BD 2100; 2025-02 IT STLS 0; 2025-02 IT SY 110`

// applicantRows renders rows as fixtureApplicants writes them, leaving out the line.
func applicantRows(rows []eurostat.Applicants) string {
	var parts []string
	for _, r := range rows {
		c := r.Citizen
		if c == "" {
			c = "-"
		}
		parts = append(parts, fmt.Sprintf("%s %s %s %d", r.Period, r.Geo, c, r.Value))
	}
	return strings.Join(parts, "; ")
}

// normRows joins rows written over several lines as applicantRows does.
func normRows(s string) string {
	var rows []string
	for _, r := range strings.FieldsFunc(s, func(c rune) bool { return c == ';' || c == '\n' }) {
		if r = strings.TrimSpace(r); r != "" {
			rows = append(rows, r)
		}
	}
	return strings.Join(rows, "; ")
}

func mustApplicants(t *testing.T, name, in string) *eurostat.ApplicantsFile {
	t.Helper()
	f, err := eurostat.ParseApplicants(name, strings.NewReader(in))
	if err != nil {
		t.Fatalf("ParseApplicants(%s): %v", name, err)
	}
	return f
}

func TestParseApplicantsFixtures(t *testing.T) {
	tests := []struct {
		file, format, updated string
		line                  int // the line of DE SY 2025-01, 0 for JSON-stat
	}{
		{"migr_asyappctzm.sdmx-csv", "SDMX-CSV 2.1, first-time applicants (asyl_app=NASY_APP)", "2026-03-27T23:00:00", 132},
		{"migr_asyappctzm.sdmx3-csv", "SDMX 3.0 CSV, first-time applicants (applicant=FRST)", "", 82},
		{"migr_asyappctzm.tsv", "bulk TSV, first-time applicants (asyl_app=NASY_APP)", "", 67},
		{"migr_asyappctzm.tsv.gz", "bulk TSV, first-time applicants (asyl_app=NASY_APP)", "", 67},
		{"migr_asyappctzm.jsonstat.json", "JSON-stat 2.0, first-time applicants (applicant=FRST)", "2026-03-27T23:00:00+0100", 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			f := mustApplicants(t, tt.file, string(data))
			if f.Dataset != "migr_asyappctzm" || f.Format != tt.format || f.Updated != tt.updated {
				t.Errorf("got dataset %q format %q updated %q, want migr_asyappctzm %q %q", f.Dataset, f.Format, f.Updated, tt.format, tt.updated)
			}
			if got, want := applicantRows(f.Rows), normRows(fixtureApplicants); got != want {
				t.Errorf("rows\n got %s\nwant %s", got, want)
			}
			for _, r := range f.Rows {
				if (tt.line == 0) != (r.Line == 0) {
					t.Fatalf("%+v: line %d", r, r.Line)
				}
				if r.Geo == "DE" && r.Citizen == "SY" && r.Period == "2025-01" && r.Line != tt.line {
					t.Errorf("DE SY 2025-01 read from line %d, want %d", r.Line, tt.line)
				}
			}
		})
	}
}

const (
	appHead  = "DATAFLOW,LAST UPDATE,freq,unit,citizen,sex,age,asyl_app,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS\n"
	appFlow  = "ESTAT:MIGR_ASYAPPCTZM(1.0),27/03/26 23:00:00,"
	appTSV   = "freq,unit,citizen,sex,age,asyl_app,geo\\TIME_PERIOD\t2025-01 \t2025-02 \n"
	appAnnTS = "freq,unit,citizen,sex,age,applicant,geo\\TIME_PERIOD\t2023 \t2024 \n"
)

// appRow is one SDMX-CSV 2.1 row of migr_asyappctzm, first-time, both sexes, all ages.
func appRow(citizen, geo, period, value string) string {
	return appFlow + "M,PER," + citizen + ",T,TOTAL,NASY_APP," + geo + "," + period + "," + value + ",,\n"
}

func TestParseApplicantsFilters(t *testing.T) {
	tests := []struct {
		name, file, in  string
		dataset, format string
		updated, rows   string
	}{
		{"other sexes, ages, units and subsequent applicants are skipped", "x.csv", appHead +
			appFlow + "M,PER,SY,F,TOTAL,NASY_APP,DE,2025-01,1,,\n" +
			appFlow + "M,PER,SY,T,Y_LT18,NASY_APP,DE,2025-01,2,,\n" +
			appFlow + "M,THS_PER,SY,T,TOTAL,NASY_APP,DE,2025-01,3,,\n" +
			appFlow + "M,PER,SY,T,TOTAL,SSEQ,DE,2025-01,4,,\n" +
			appRow("SY", "DE", "2025-01", "1500"),
			"migr_asyappctzm", "SDMX-CSV 2.1, first-time applicants (asyl_app=NASY_APP)", "2026-03-27T23:00:00", "2025-01 DE SY 1500"},
		{"all applicants before first-time ones are dropped", "x.csv", appHead +
			appFlow + "M,PER,SY,T,TOTAL,ASY_APP,DE,2025-01,1700,,\n" +
			appFlow + "M,PER,SY,T,TOTAL,ASY_APP,EL,2025-01,500,,\n" +
			appRow("SY", "DE", "2025-01", "1500"),
			"migr_asyappctzm", "SDMX-CSV 2.1, first-time applicants (asyl_app=NASY_APP)", "2026-03-27T23:00:00", "2025-01 DE SY 1500"},
		{"all applicants when the file has no first-time figures", "x.csv", appHead +
			appFlow + "M,PER,SY,T,TOTAL,ASY_APP,DE,2025-01,1700,,\n" +
			appFlow + "M,PER,TOTAL,T,TOTAL,ASY_APP,DE,2025-01,7100,,\n",
			"migr_asyappctzm", "SDMX-CSV 2.1, all applicants (asyl_app=ASY_APP): the file has no first-time figures", "2026-03-27T23:00:00",
			"2025-01 DE - 7100; 2025-01 DE SY 1700"},
		{"geo aggregates and non-members skipped, GR read as EL", "x.csv", appHead +
			appRow("SY", "EU27_2020", "2025-01", "9") + appRow("SY", "EA20", "2025-01", "9") + appRow("SY", "NO", "2025-01", "9") +
			appRow("SY", "CH", "2025-01", "9") + appRow("SY", "GR", "2025-01", "450"),
			"migr_asyappctzm", "", "2026-03-27T23:00:00", "2025-01 EL SY 450"},
		{"citizen groups skipped; stateless, unknown, recognised non-citizens, Kosovo kept", "x.csv", appHead +
			appRow("EU27_2020", "DE", "2025-01", "9") + appRow("EXT_EU27_2020", "DE", "2025-01", "9") + appRow("EXT_EU28", "DE", "2025-01", "9") +
			appRow("EU28", "DE", "2025-01", "9") + appRow("EFTA", "DE", "2025-01", "9") + appRow("NEU", "DE", "2025-01", "9") +
			appRow("STLS", "DE", "2025-01", "40") + appRow("UNK", "DE", "2025-01", "15") + appRow("RNC", "DE", "2025-01", "3") +
			appRow("XK", "DE", "2025-01", "30") + appRow("TOTAL", "DE", "2025-01", "6500"),
			"migr_asyappctzm", "", "2026-03-27T23:00:00", "2025-01 DE - 6500; 2025-01 DE RNC 3; 2025-01 DE STLS 40; 2025-01 DE UNK 15; 2025-01 DE XK 30"},
		{"missing figures skipped, zero and the largest figure kept, 12.0 is 12", "x.csv", appHead +
			appRow("SY", "DE", "2025-01", "") + appRow("SY", "EL", "2025-01", "0") + appRow("SY", "IT", "2025-01", "100000000") +
			appRow("AF", "IT", "2025-01", "12.0"),
			"migr_asyappctzm", "", "2026-03-27T23:00:00", "2025-01 EL SY 0; 2025-01 IT AF 12; 2025-01 IT SY 100000000"},
		{"vintages that differ give none", "x.csv", appHead + appRow("SY", "DE", "2025-01", "1") +
			strings.Replace(appRow("SY", "EL", "2025-01", "2"), "27/03/26", "28/03/26", 1),
			"migr_asyappctzm", "", "", "2025-01 DE SY 1; 2025-01 EL SY 2"},
		{"quarterly rows skipped", "x.csv", appHead + strings.Replace(appRow("SY", "DE", "2025-Q1", "1"), ",M,", ",Q,", 1) +
			appRow("SY", "DE", "2025-01", "2"),
			"migr_asyappctzm", "", "2026-03-27T23:00:00", "2025-01 DE SY 2"},
		{"annual SDMX-CSV", "x.csv", appHead + strings.NewReplacer("CTZM", "CTZA", ",M,", ",A,").Replace(appRow("SY", "DE", "2024", "17000")),
			"migr_asyappctza", "SDMX-CSV 2.1, first-time applicants (asyl_app=NASY_APP)", "2026-03-27T23:00:00", "2024 DE SY 17000"},
		{"bulk TSV before 2023: 2025M01", "migr_asyappctzm.tsv",
			"freq,unit,citizen,sex,age,asyl_app,geo\\time\t2025M02 \t2025M01 \nM,PER,SY,T,TOTAL,NASY_APP,DE\t1400 \t1500 \n",
			"migr_asyappctzm", "bulk TSV, first-time applicants (asyl_app=NASY_APP)", "", "2025-01 DE SY 1500; 2025-02 DE SY 1400"},
		{"annual bulk TSV named after its dataset", "estat_migr_asyappctza.tsv",
			appAnnTS + "A,PER,SY,T,TOTAL,FRST,DE\t: \t17000 \nA,PER,SY,T,TOTAL,TOTAL,DE\t: \t19000 \n",
			"migr_asyappctza", "bulk TSV, first-time applicants (applicant=FRST)", "", "2024 DE SY 17000"},
		{"a TSV named after nothing is told by its dimensions, monthly by its periods", "download.tsv",
			appTSV + "M,PER,SY,T,TOTAL,NASY_APP,DE\t1500 \t: c\n",
			"migr_asyappctzm", "bulk TSV, first-time applicants (asyl_app=NASY_APP)", "", "2025-01 DE SY 1500"},
		{"no applicant dimension in a file named after its dataset", "migr_asyappctzm.tsv",
			"freq,unit,citizen,sex,age,geo\\TIME_PERIOD\t2025-01 \nM,PER,SY,T,TOTAL,DE\t1500 \n",
			"migr_asyappctzm", "bulk TSV, applicant type not given (no asyl_app or applicant dimension)", "", "2025-01 DE SY 1500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustApplicants(t, tt.file, tt.in)
			if got := applicantRows(f.Rows); got != normRows(tt.rows) {
				t.Errorf("rows\n got %s\nwant %s", got, normRows(tt.rows))
			}
			if f.Dataset != tt.dataset || tt.format != "" && f.Format != tt.format || f.Updated != tt.updated {
				t.Errorf("got dataset %q format %q updated %q, want %q %q %q", f.Dataset, f.Format, f.Updated, tt.dataset, tt.format, tt.updated)
			}
		})
	}
}

func TestParseApplicantsErrors(t *testing.T) {
	jsonDoc := func(id, sex, value string) string {
		return `{"version":"2.0","class":"dataset","value":` + value + `,"id":["freq","citizen","sex","applicant","geo","time"],"size":[1,1,1,1,1,1],
"dimension":{"freq":{"category":{"index":["M"]}},"citizen":{"category":{"index":["SY"]}},"sex":{"category":{"index":["` + sex + `"]}},
"applicant":{"category":{"index":["FRST"]}},"geo":{"category":{"index":["DE"]}},"time":{"category":{"index":["2025-01"]}}},
"extension":{"datasetId":"` + id + `"}}`
	}
	wide := "freq,citizen,asyl_app,geo\\TIME_PERIOD" + strings.Repeat("\t2025-01", 5000) + "\n"
	tests := []struct {
		name, file, in string
		line           int
		path, field    string
		msg            string
	}{
		{"negative", "x.csv", appHead + appRow("SY", "DE", "2025-01", "-5"), 2, "", "OBS_VALUE",
			`DE citizens of SY in 2025-01: value "-5" is negative`},
		{"not whole", "x.csv", appHead + appRow("SY", "DE", "2025-01", "1") + appRow("SY", "EL", "2025-01", "12.5"), 3, "", "OBS_VALUE",
			`EL citizens of SY in 2025-01: applicants "12.5" is not a whole number`},
		{"too large", "x.csv", appHead + appRow("TOTAL", "DE", "2025-01", "100000001"), 2, "", "OBS_VALUE",
			`DE all citizens in 2025-01: applicants "100000001" is more than 100000000`},
		{"not a number", "x.csv", appHead + appRow("SY", "DE", "2025-01", "1e"), 2, "", "OBS_VALUE", `value "1e" is not a number`},
		{"duplicate", "x.csv", appHead + appRow("SY", "DE", "2025-01", "1") + appRow("AF", "DE", "2025-01", "2") + appRow("SY", "DE", "2025-01", "3"),
			4, "", "OBS_VALUE", "duplicate figure for DE citizens of SY in 2025-01 (first at line 2)"},
		{"duplicate of a missing figure", "x.csv", appHead + appRow("SY", "DE", "2025-01", "") + appRow("SY", "DE", "2025-01", "3"),
			3, "", "OBS_VALUE", "duplicate figure for DE citizens of SY in 2025-01 (first at line 2)"},
		{"GR duplicates EL", "x.tsv", appTSV + "M,PER,SY,T,TOTAL,NASY_APP,EL\t1 \t2 \nM,PER,SY,T,TOTAL,NASY_APP,GR\t1 \t2 \n",
			3, "", "2025-01", "duplicate figure for EL citizens of SY in 2025-01 (first at line 2)"},
		{"bad month", "x.csv", appHead + appRow("SY", "DE", "2025-13", "1"), 2, "", "TIME_PERIOD", `time period "2025-13" is neither a month`},
		{"annual period in the monthly dataset", "x.csv", appHead + strings.Replace(appRow("SY", "DE", "2024", "1"), ",M,", ",A,", 1),
			2, "", "TIME_PERIOD", `time period "2024" is annual: migr_asyappctzm has monthly figures`},
		{"period against freq", "x.csv", appHead + appRow("SY", "DE", "2025", "1"), 2, "", "TIME_PERIOD", `time period "2025" is not of frequency M`},
		{"monthly and annual in one unnamed file", "x.tsv", "citizen,asyl_app,geo\\TIME_PERIOD\t2024 \t2025-01 \nSY,NASY_APP,DE\t1 \t2 \n",
			1, "", "2025-01", `time period "2025-01" is monthly, earlier ones are annual: one file, one frequency`},
		{"another dataset", "x.csv", appHead + strings.Replace(appRow("SY", "DE", "2025-01", "1"), "ASYAPPCTZM", "ASYDCFSTA", 1),
			2, "", "DATAFLOW", "dataset migr_asydcfsta is not asylum applicants by citizenship"},
		{"mixed dataflows", "x.csv", appHead + appRow("SY", "DE", "2025-01", "1") + strings.Replace(appRow("SY", "EL", "2025", "1"), "CTZM", "CTZA", 1),
			3, "", "DATAFLOW", "differs"},
		{"no citizen column", "x.csv", "DATAFLOW,LAST UPDATE,freq,asyl_app,geo,TIME_PERIOD,OBS_VALUE\n", 1, "", "",
			"no citizen dimension: not an asylum applicants file"},
		{"both applicant dimensions", "x.tsv", "citizen,asyl_app,applicant,geo\\TIME_PERIOD\t2025-01\n", 1, "", "citizen,asyl_app,applicant,geo\\TIME_PERIOD",
			"both asyl_app and applicant"},
		{"cannot tell the dataset", "x.tsv", "citizen,geo\\TIME_PERIOD\t2025-01\nSY,DE\t1\n", 1, "", "citizen,geo\\TIME_PERIOD",
			"cannot tell which dataset this is"},
		{"unknown format", "x.txt", "geo;citizen;value\nDE;SY;1\n", 1, "", "", "not a Eurostat file"},
		{"empty file", "x.csv", "", 1, "", "", "not a Eurostat file"},
		{"no figures", "x.csv", appHead + appRow("SY", "DE", "2025-01", ":") + appRow("SY", "NO", "2025-01", "5"), 0, "", "",
			"no figure for a Member State in the file"},
		{"bad flag", "x.tsv", appTSV + "M,PER,SY,T,TOTAL,NASY_APP,DE\t1 \t2 PP\n", 2, "", "2025-02", `observation flag "PP" is not a Eurostat flag`},
		{"three words in a cell", "x.tsv", appTSV + "M,PER,SY,T,TOTAL,NASY_APP,DE\t1 \t2 p q\n", 2, "", "2025-02", "is not a figure with an optional flag"},
		{"ragged TSV row", "x.tsv", appTSV + "M,PER,SY,T,TOTAL,NASY_APP,DE\t1\n", 2, "", "", "row has 2 cells, the header has 3"},
		{"short TSV key", "x.tsv", appTSV + "M,PER,SY,T,TOTAL,DE\t1 \t2\n", 2, "", "freq,unit,citizen,sex,age,asyl_app,geo\\TIME_PERIOD",
			"has 6 parts, the header names 7 dimensions"},
		{"ragged CSV row", "x.csv", appHead + strings.TrimSuffix(appRow("SY", "DE", "2025-01", "1"), ",\n") + "\n", 2, "", "",
			"row has 12 fields, the header has 13"},
		{"a row beyond the column bound", "x.tsv", wide, 1, "", "", "a row of more than the limit of 4096 fields"},
		{"not gzip", "x.tsv.gz", "\x1f\x8bnot gzip", 0, "", "", "not a valid gzip file"},
		{"JSON-stat of another dataset", "x.json", jsonDoc("migr_asydcfsta", "T", `{"0":1}`), 0, "$.extension.datasetId", "",
			"dataset migr_asydcfsta is not asylum applicants"},
		{"JSON-stat negative", "x.json", jsonDoc("migr_asyappctzm", "T", `{"0":-1}`), 0, `$.value["0"]`, "", `value "-1" is negative`},
		{"JSON-stat non-integer", "x.json", jsonDoc("migr_asyappctzm", "T", `[1.5]`), 0, `$.value[0]`, "", "not a whole number"},
		{"JSON-stat without sex=T", "x.json", jsonDoc("migr_asyappctzm", "F", `{"0":1}`), 0, "$.dimension.sex.category.index", "",
			"no category T: the file does not hold sex=T"},
		{"JSON-stat annual period in the monthly dataset", "x.json",
			strings.Replace(jsonDoc("migr_asyappctzm", "T", `{"0":1}`), `"2025-01"`, `"2025"`, 1), 0, `$.dimension.time.category.index["2025"]`, "",
			`time period "2025" is not of frequency M`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := eurostat.ParseApplicants(tt.file, strings.NewReader(tt.in))
			e, ok := errors.AsType[*solidarity.Error](err)
			if !ok || f != nil {
				t.Fatalf("got %v, %v; want a *solidarity.Error and no file", f, err)
			}
			if e.Code != solidarity.EINVALID || e.File != tt.file || !strings.Contains(e.Message, tt.msg) {
				t.Errorf("got %q (code %s, file %q), want %q in file %q", e.Message, e.Code, e.File, tt.msg, tt.file)
			}
			if tt.line != 0 && e.Line != tt.line || tt.name == "no figures" && e.Line != 0 || e.Path != tt.path || tt.field != "" && e.Field != tt.field {
				t.Errorf("located at line %d path %q field %q, want %d %q %q (%v)", e.Line, e.Path, e.Field, tt.line, tt.path, tt.field, err)
			}
		})
	}
}

func TestParseApplicantsTruncatedGzip(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "migr_asyappctzm.tsv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = eurostat.ParseApplicants("cut.tsv.gz", bytes.NewReader(data[:len(data)/2]))
	if e, ok := errors.AsType[*solidarity.Error](err); !ok || e.Code != solidarity.EINVALID || !strings.Contains(e.Message, "truncated") {
		t.Fatalf("got %v, want the truncated download named", err)
	}
}

func TestCitizenName(t *testing.T) {
	for code, want := range map[string]string{
		"AF": "Afghanistan", "DZ": "Algeria", "BD": "Bangladesh", "EG": "Egypt", "ER": "Eritrea", "ET": "Ethiopia",
		"GM": "Gambia", "GN": "Guinea", "CI": "Cote d'Ivoire", "IR": "Iran", "IQ": "Iraq", "ML": "Mali", "MA": "Morocco",
		"NG": "Nigeria", "PK": "Pakistan", "SN": "Senegal", "SO": "Somalia", "SD": "Sudan", "SY": "Syria", "TN": "Tunisia",
		"TR": "Türkiye", "UA": "Ukraine", "VE": "Venezuela", "CO": "Colombia", "STLS": "Stateless", "UNK": "Unknown",
		"EL": "Greece", "DE": "Germany", "": "All citizenships", "QQ": "QQ", "GR": "Greece",
	} {
		if got := eurostat.CitizenName(code); got != want {
			t.Errorf("CitizenName(%q) = %q, want %q", code, got, want)
		}
	}
}

// FuzzApplicants: ParseApplicants either returns a *solidarity.Error of code EINVALID
// naming the file and no result, or rows of Member States in well-formed periods of
// one frequency, each (state, citizen, period) once, within the figure bound.
func FuzzApplicants(f *testing.F) {
	for _, s := range []string{"migr_asyappctzm.sdmx-csv", "migr_asyappctzm.sdmx3-csv", "migr_asyappctzm.tsv",
		"migr_asyappctzm.tsv.gz", "migr_asyappctzm.jsonstat.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", s))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		if !strings.HasSuffix(s, ".gz") && !strings.HasSuffix(s, ".json") {
			// The head of a fixture too: the fuzzer mutates and minimises a short
			// input hundreds of times faster than a whole one.
			lines := bytes.SplitAfter(data, []byte("\n"))
			f.Add(bytes.Join(append(lines[:1:1], lines[len(lines)/2:len(lines)/2+8]...), nil))
		}
	}
	f.Add([]byte(appAnnTS + "A,PER,SY,T,TOTAL,FRST,DE\t: \t17000 \n"))
	periodRE := regexp.MustCompile(`^[0-9]{4}(-(0[1-9]|1[0-2]))?$`)
	citizenRE := regexp.MustCompile(`^([A-Z]{2}|STLS|UNK|RNC)?$`)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"migr_asyappctzm.csv", "download"} {
			af, err := eurostat.ParseApplicants(name, bytes.NewReader(data))
			if err != nil {
				if e, ok := errors.AsType[*solidarity.Error](err); !ok || e.Code != solidarity.EINVALID || e.File != name || af != nil {
					t.Fatalf("bad error %T %v (file %v)", err, err, af)
				}
				continue
			}
			if af.Dataset != "migr_asyappctzm" && af.Dataset != "migr_asyappctza" || len(af.Rows) == 0 || af.Format == "" {
				t.Fatalf("incomplete file %q %q %d rows", af.Dataset, af.Format, len(af.Rows))
			}
			seen := make(map[string]bool)
			for _, r := range af.Rows {
				key := string(r.Geo) + " " + r.Citizen + " " + r.Period
				if !r.Geo.Valid() || !periodRE.MatchString(r.Period) || !citizenRE.MatchString(r.Citizen) || seen[key] {
					t.Fatalf("row %+v invalid or repeated", r)
				}
				seen[key] = true
				if r.Value < 0 || r.Value > eurostat.MaxApplicants || r.Line < 0 {
					t.Fatalf("row %+v out of bounds", r)
				}
				if (len(r.Period) == 7) != (af.Dataset == "migr_asyappctzm") {
					t.Fatalf("period %s in %s", r.Period, af.Dataset)
				}
			}
		}
	})
}
