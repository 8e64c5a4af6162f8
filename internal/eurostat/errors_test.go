package eurostat_test

import (
	"errors"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/eurostat"
)

const (
	sdmx21Head = "DATAFLOW,LAST UPDATE,freq,unit,na_item,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS\n"
	sdmx21Row  = "ESTAT:NAMA_10_GDP(1.0),17/11/25 23:00:00,A,CP_MEUR,B1GQ,"
	sdmx3Head  = "STRUCTURE,STRUCTURE_ID,STRUCTURE_NAME,freq,unit,age,sex,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS\n"
	sdmx3Row   = "dataflow,ESTAT:DEMO_PJAN(1.0),Population on 1 January by age and sex,A,NR,TOTAL,T,"
	tsvHead    = "freq,unit,na_item,geo\\TIME_PERIOD\t2023 \t2024 \n"
)

// jsonStat builds a small nama_10_gdp JSON-stat document; the arguments replace its
// value, size and geo index.
func jsonStat(value, size, geoIndex string) string {
	return `{"version":"2.0","class":"dataset","label":"x","updated":"2025-11-17T23:00:00+0100",
"value":` + value + `,
"id":["freq","unit","na_item","geo","time"],"size":` + size + `,
"dimension":{"freq":{"category":{"index":{"A":0}}},"unit":{"category":{"index":{"CP_MEUR":0}}},
"na_item":{"category":{"index":{"B1GQ":0}}},"geo":{"category":{"index":` + geoIndex + `}},
"time":{"category":{"index":{"2024":0}}}},
"extension":{"datasetId":"nama_10_gdp"}}`
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, file, in string
		opt            eurostat.Options
		line           int
		path, field    string
		msg            string
	}{
		// SDMX-CSV 2.1
		{"ragged row", "x.csv", sdmx21Head + sdmx21Row + "AT,2024,494087.6,p,\n" + sdmx21Row + "DE,2024,4328970.0,p\n",
			eurostat.Options{}, 3, "", "", "row has 9 fields, the header has 10"},
		{"negative value", "x.csv", sdmx21Head + sdmx21Row + "AT,2024,-494087.6,p,\n",
			eurostat.Options{}, 2, "", "OBS_VALUE", `AT value "-494087.6" is negative`},
		{"non-numeric value", "x.csv", sdmx21Head + sdmx21Row + "AT,2024,494087.6,p,\n" + sdmx21Row + "DE,2024,4.328.970,p,\n",
			eurostat.Options{}, 3, "", "OBS_VALUE", `DE value "4.328.970" is not a number`},
		{"fraction is no decimal", "x.csv", sdmx21Head + sdmx21Row + "AT,2024,1/3,p,\n",
			eurostat.Options{}, 2, "", "OBS_VALUE", "is not a number"},
		{"duplicate state and period", "x.csv", sdmx21Head + sdmx21Row + "AT,2024,1,p,\n" + sdmx21Row + "DE,2024,2,p,\n" + sdmx21Row + "AT,2024,3,p,\n",
			eurostat.Options{}, 4, "", "OBS_VALUE", "duplicate figure for AT in 2024 (first at line 2)"},
		{"GR duplicates EL", "x.csv", sdmx21Head + sdmx21Row + "EL,2024,1,,\n" + sdmx21Row + "GR,2024,2,,\n",
			eurostat.Options{}, 3, "", "OBS_VALUE", "duplicate figure for EL"},
		{"other dataset", "x.csv", sdmx21Head + "ESTAT:NAMA_10_PC(1.0),17/11/25 23:00:00,A,CP_MEUR,B1GQ,AT,2024,1,,\n",
			eurostat.Options{}, 2, "", "DATAFLOW", "dataset nama_10_pc is not one the reference key uses"},
		{"mixed dataflows", "x.csv", sdmx21Head + sdmx21Row + "AT,2024,1,,\n" + "ESTAT:DEMO_PJAN(1.0),17/11/25 23:00:00,A,CP_MEUR,B1GQ,DE,2024,1,,\n",
			eurostat.Options{}, 3, "", "DATAFLOW", "differs"},
		{"bare quote", "x.csv", sdmx21Head + sdmx21Row + "AT,2024,1,,\n" + sdmx21Row + "D\"E,2024,1,,\n",
			eurostat.Options{}, 3, "", "", "bare \" in non-quoted-field"},
		{"missing OBS_VALUE column", "x.csv", "DATAFLOW,LAST UPDATE,freq,unit,na_item,geo,TIME_PERIOD,OBS_FLAG\n",
			eurostat.Options{}, 1, "", "OBS_VALUE", "missing column OBS_VALUE"},
		{"missing filter column", "x.csv", "DATAFLOW,LAST UPDATE,freq,na_item,geo,TIME_PERIOD,OBS_VALUE\nESTAT:NAMA_10_GDP(1.0),17/11/25,A,B1GQ,AT,2024,1\n",
			eurostat.Options{}, 1, "", "unit", "missing column unit"},
		{"duplicate column", "x.csv", "DATAFLOW,LAST UPDATE,freq,unit,na_item,geo,geo: Geopolitical entity (reporting),TIME_PERIOD,OBS_VALUE\n",
			eurostat.Options{}, 1, "", "geo", "column geo appears twice"},
		{"quarterly period", "x.csv", sdmx21Head + sdmx21Row + "AT,2024-Q1,1,,\n",
			eurostat.Options{}, 2, "", "TIME_PERIOD", `time period "2024-Q1" is not a year`},
		{"bad flag", "x.csv", sdmx21Head + sdmx21Row + "AT,2024,1,P!,\n",
			eurostat.Options{}, 2, "", "OBS_VALUE", `observation flag "P!"`},
		{"only a header", "x.csv", sdmx21Head, eurostat.Options{}, 0, "", "", "no observations"},
		{"only aggregates", "x.csv", sdmx21Head + sdmx21Row + "EU27_2020,2024,1,,\n",
			eurostat.Options{}, 0, "", "", "no figure for any Member State"},
		{"period not in file", "x.csv", sdmx21Head + sdmx21Row + "AT,2024,1,,\n",
			eurostat.Options{Period: "2023"}, 0, "", "", "no figures for period 2023 in nama_10_gdp unit=CP_MEUR na_item=B1GQ (periods in the file: 2024)"},

		// SDMX 3.0 CSV
		{"population not whole", "x.csv", sdmx3Head + sdmx3Row + "AT,2025,9197213.5,,\n",
			eurostat.Options{}, 2, "", "OBS_VALUE", `AT population "9197213.5" is not a whole number`},
		{"no dataset", "data.csv", "STRUCTURE,STRUCTURE_ID,freq,geo,TIME_PERIOD,OBS_VALUE\ndataflow,,A,AT,2025,1\n",
			eurostat.Options{}, 1, "", "", "cannot tell which dataset"},
		{"no STRUCTURE_ID", "x.csv", "STRUCTURE,freq,geo,TIME_PERIOD,OBS_VALUE\n",
			eurostat.Options{}, 1, "", "STRUCTURE_ID", "missing column STRUCTURE_ID"},
		{"labelled duplicate", "x.csv", sdmx3Head + sdmx3Row + "AT: Austria,2025,1,,\n" + sdmx3Row + "AT:Austria,2025,2,,\n",
			eurostat.Options{}, 3, "", "OBS_VALUE", "duplicate figure for AT in 2025"},
		{"labelled header names the column by id", "x.csv", "STRUCTURE,STRUCTURE_ID,STRUCTURE_NAME,freq: Time frequency,unit: Unit of measure,age: Age class,sex: Sex,geo: Geopolitical entity (reporting),TIME_PERIOD: Time,OBS_VALUE: Observation value\n" +
			sdmx3Row + "AT: Austria,2025,-1\n",
			eurostat.Options{}, 2, "", "OBS_VALUE", "is negative"},
		{"quoted multi-line cell", "x.csv", sdmx3Head + sdmx3Row + "\"AT\n\",2025,1,,\n" + sdmx3Row + "DE,2025,x,,\n",
			eurostat.Options{}, 4, "", "OBS_VALUE", "is not a number"},

		// Bulk TSV
		{"ragged TSV row", "nama_10_gdp.tsv", tsvHead + "A,CP_MEUR,B1GQ,AT\t: \t494087.6 p\nA,CP_MEUR,B1GQ,DE\t: \n",
			eurostat.Options{}, 3, "", "", "row has 2 cells, the header has 3"},
		{"TSV key too short", "nama_10_gdp.tsv", tsvHead + "A,CP_MEUR,AT\t: \t494087.6 p\n",
			eurostat.Options{}, 2, "", "freq,unit,na_item,geo\\TIME_PERIOD", "has 3 parts"},
		{"TSV non-numeric", "nama_10_gdp.tsv", tsvHead + "A,CP_MEUR,B1GQ,AT\t: \t494O87.6 p\n",
			eurostat.Options{}, 2, "", "2024", `AT value "494O87.6" is not a number`},
		{"TSV negative", "nama_10_gdp.tsv", tsvHead + "A,CP_MEUR,B1GQ,AT\t: \t494087.6 p\nA,CP_MEUR,B1GQ,DE\t-1 \t: \n",
			eurostat.Options{}, 3, "", "2023", "is negative"},
		{"TSV three parts", "nama_10_gdp.tsv", tsvHead + "A,CP_MEUR,B1GQ,AT\t: \t494087.6 p e\n",
			eurostat.Options{}, 2, "", "2024", "not a figure with an optional flag"},
		{"TSV duplicate", "nama_10_gdp.tsv", tsvHead + "A,CP_MEUR,B1GQ,AT\t: \t1\nA,CP_MEUR,B1GQ,AT\t: \t2\n",
			eurostat.Options{}, 3, "", "2023", "duplicate figure for AT in 2023 (first at line 2)"},
		{"TSV duplicate period", "nama_10_gdp.tsv", "freq,unit,na_item,geo\\TIME_PERIOD\t2024 \t2024\n",
			eurostat.Options{}, 1, "", "2024", "period 2024 appears twice"},
		{"TSV no dataset", "data.tsv", "freq,geo\\TIME_PERIOD\t2024 \nA,AT\t1 \n",
			eurostat.Options{}, 1, "", "freq,geo\\TIME_PERIOD", "cannot tell which dataset"},
		{"TSV missing filter dimension", "nama_10_gdp.tsv", "freq,na_item,geo\\TIME_PERIOD\t2024 \nA,B1GQ,AT\t1 \n",
			eurostat.Options{}, 1, "", "freq,na_item,geo\\TIME_PERIOD", "no unit dimension"},
		{"bad gzip", "nama_10_gdp.tsv.gz", "\x1f\x8b\x00garbage",
			eurostat.Options{}, 0, "", "", "not a valid gzip file"},

		// JSON-stat
		{"bad JSON", "x.json", "{\"version\":\"2.0\",\n\"value\":{\"0\":1,},\n\"id\":[]}",
			eurostat.Options{}, 2, "$", "", "bad JSON"},
		{"truncated JSON", "x.json", "{\"version\":\"2.0\",\n\"value\":{\"0\":1",
			eurostat.Options{}, 2, "$", "", "unexpected end"},
		{"trailing data", "x.json", jsonStat(`{"0":1}`, `[1,1,1,1,1]`, `{"AT":0}`) + "\n{}",
			eurostat.Options{}, 8, "$", "", "unexpected data after the JSON object"},
		{"size is not an array", "x.json", `{"id":["geo"],"size":"3"}`,
			eurostat.Options{}, 1, "$.size", "", "expected"},
		{"size count differs from id", "x.json", jsonStat(`{"0":1}`, `[1,1,1,1]`, `{"AT":0}`),
			eurostat.Options{}, 0, "$.size", "", "has 4 entries, $.id has 5"},
		{"size differs from categories", "x.json", jsonStat(`{"0":1}`, `[1,1,1,3,1]`, `{"AT":0,"DE":1}`),
			eurostat.Options{}, 0, "$.dimension.geo.category.index", "", "has 2 categories, $.size[3] says 3"},
		{"dense value of the wrong length", "x.json", jsonStat(`[1,2,3]`, `[1,1,1,2,1]`, `{"AT":0,"DE":1}`),
			eurostat.Options{}, 0, "$.value", "", "has 3 entries, the product of $.size is 2"},
		{"sparse key out of range", "x.json", jsonStat(`{"0":1,"2":5}`, `[1,1,1,2,1]`, `{"AT":0,"DE":1}`),
			eurostat.Options{}, 0, `$.value["2"]`, "", "key is not a flat index below 2"},
		{"sparse key not canonical", "x.json", jsonStat(`{"01":1}`, `[1,1,1,2,1]`, `{"AT":0,"DE":1}`),
			eurostat.Options{}, 0, `$.value["01"]`, "", "key is not a flat index"},
		{"negative JSON value", "x.json", jsonStat(`{"0":1,"1":-2}`, `[1,1,1,2,1]`, `{"AT":0,"DE":1}`),
			eurostat.Options{}, 0, `$.value["1"]`, "", `DE value "-2" is negative`},
		{"string JSON value", "x.json", jsonStat(`{"0":"494087.6"}`, `[1,1,1,2,1]`, `{"AT":0,"DE":1}`),
			eurostat.Options{}, 0, `$.value["0"]`, "", "value is not a number"},
		{"position out of range", "x.json", jsonStat(`{"0":1}`, `[1,1,1,2,1]`, `{"AT":0,"DE":2}`),
			eurostat.Options{}, 0, "$.dimension.geo.category.index.DE", "", "position 2 is not between 0 and 1"},
		{"position given twice", "x.json", jsonStat(`{"0":1}`, `[1,1,1,2,1]`, `{"AT":0,"DE":0}`),
			eurostat.Options{}, 0, "$.dimension.geo.category.index.DE", "", "position 0 is also given to AT"},
		{"code given twice", "x.json", jsonStat(`{"0":1}`, `[1,1,1,2,1]`, `{"AT":0,"AT":1}`),
			eurostat.Options{}, 0, "$.dimension.geo.category.index", "", `key "AT" appears twice`},
		{"code twice in an array index", "x.json", jsonStat(`{"0":1}`, `[1,1,1,2,1]`, `["AT","AT"]`),
			eurostat.Options{}, 0, "$.dimension.geo.category.index[1]", "", "category AT appears twice"},
		{"other dataset", "x.json", strings.Replace(jsonStat(`{"0":1}`, `[1,1,1,1,1]`, `{"AT":0}`), `"nama_10_gdp"`, `"nama_10_pc"`, 1),
			eurostat.Options{}, 0, "$.extension.datasetId", "", "dataset nama_10_pc is not one"},
		{"wrong unit", "x.json", strings.Replace(jsonStat(`{"0":1}`, `[1,1,1,1,1]`, `{"AT":0}`), `"CP_MEUR"`, `"CP_MNAC"`, 1),
			eurostat.Options{}, 0, "$.dimension.unit.category.index", "", "no category CP_MEUR"},
		{"missing dimension", "x.json", strings.Replace(jsonStat(`{"0":1}`, `[1,1,1,1,1]`, `{"AT":0}`), `"time":`, `"year":`, 1),
			eurostat.Options{}, 0, "$.dimension.time", "", "missing: $.id lists dimension time"},
		{"Eurostat error", "x.json", `{"error":[{"status":400,"id":100,"label":"No data found"}]}`,
			eurostat.Options{}, 0, "$.error", "", "No data found"},
		{"not a dataset", "x.json", `{"class":"collection","id":[],"size":[]}`,
			eurostat.Options{}, 0, "$.class", "", `class "collection"`},

		// Neither
		{"unknown format", "x.txt", "code,country,population\nAT,Austria,1\n",
			eurostat.Options{}, 1, "", "", "not a Eurostat file"},
		{"empty file", "x.txt", "", eurostat.Options{}, 1, "", "", "not a Eurostat file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := eurostat.Parse(tt.file, strings.NewReader(tt.in), tt.opt)
			if err == nil {
				t.Fatalf("no error; got %d rows", len(d.Rows))
			}
			if d != nil {
				t.Errorf("a dataset came back with the error")
			}
			e, ok := errors.AsType[*solidarity.Error](err)
			if !ok {
				t.Fatalf("%T %v is not a *solidarity.Error", err, err)
			}
			if e.Code != solidarity.EINVALID || e.File != tt.file || e.Line != tt.line || e.Path != tt.path || e.Field != tt.field {
				t.Errorf("got code %q file %q line %d path %q field %q, want %q %q %d %q %q (%v)",
					e.Code, e.File, e.Line, e.Path, e.Field, solidarity.EINVALID, tt.file, tt.line, tt.path, tt.field, err)
			}
			if !strings.Contains(e.Message, tt.msg) {
				t.Errorf("message %q does not contain %q", e.Message, tt.msg)
			}
		})
	}
}
