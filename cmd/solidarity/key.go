package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"solidarity"
	"solidarity/internal/catalog"
	"solidarity/internal/keyinput"
	"solidarity/internal/report"
	"solidarity/key"
)

const keyHelp = `Usage: solidarity key [--key ammr|2015] [--participating SET] [--population REF] [--gdp REF] [--format table|csv|json]

Computes a distribution key with exact rational arithmetic.

  --key ammr   the reference key of the AMMR, Regulation (EU) 2024/1351 (Art. 66 AMMR;
               Annex I AMMR): 50 % population share + 50 % GDP share over the
               participating states (default: the 26 states bound by Part IV, EU-27
               without Denmark).
  --key 2015   the 2015 relocation key (40 % population, 40 % GDP, 10 % inverse past
               asylum effort, 10 % inverse unemployment, corrective effects capped at
               30 %), for historical replays. It needs --inputs: a CSV with the header
               state,population,gdp_meur,asylum_per_million,unemployment_rate
               (solidarity ships no such figures).

--population and --gdp take a shipped dataset id (see 'solidarity data list'), the id of
an imported dataset, or a file (our CSV or any Eurostat download).
--participating takes part-iv, eu27, or a comma-separated list of codes (EL = Greece).
`

func runKey(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("key", keyHelp, stdout, stderr)
	which := fs.String("key", "ammr", "which `key`: ammr or 2015")
	part := fs.String("participating", "part-iv", "participating `set`: part-iv, eu27 or codes")
	pop := fs.String("population", "", "population dataset `ref` (default: the shipped default)")
	gdp := fs.String("gdp", "", "GDP dataset `ref` (default: the shipped default)")
	inputs := fs.String("inputs", "", "2015 key input CSV `file`")
	format := fs.String("format", "table", "output `format`: table, csv or json")
	dataDir := fs.String("data-dir", defaultDataDir(), "`directory` of imported datasets")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	f, err := report.ParseFormat(*format)
	if err != nil {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--format", Message: err.Error()}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch *which {
	case "2015":
		for _, f := range []string{"participating", "population", "gdp"} {
			if set[f] {
				return &solidarity.Error{Code: solidarity.EINVALID, Field: "--" + f,
					Message: "the 2015 key takes its states and figures from --inputs"}
			}
		}
		if *inputs == "" {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--inputs",
				Message: "the 2015 key needs --inputs FILE (state,population,gdp_meur,asylum_per_million,unemployment_rate)"}
		}
		fh, err := os.Open(*inputs)
		if err != nil {
			return &solidarity.Error{Code: solidarity.EINVALID, File: *inputs, Message: "cannot read the inputs file"}
		}
		defer fh.Close()
		in, err := keyinput.Parse(*inputs, fh)
		if err != nil {
			return err
		}
		k, err := key.Relocation2015(in, key.DefaultParams2015())
		if err != nil {
			return solidarity.At(err, *inputs)
		}
		return report.FromKey(k, nil, nil).Write(stdout, f)
	case "ammr":
		if set["inputs"] {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--inputs", Message: "--inputs is for --key 2015"}
		}
	default:
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--key", Message: fmt.Sprintf("unknown key %q (want ammr or 2015)", *which)}
	}
	states, err := solidarity.ParseParticipating(*part)
	if err != nil {
		return err
	}
	cat := &catalog.Files{DataDir: *dataDir}
	k, p, g, err := cat.Key(catalog.KeyRequest{Participating: states, Population: *pop, GDP: *gdp})
	if err != nil {
		return err
	}
	return report.FromKey(k, p, g).Write(stdout, f)
}
