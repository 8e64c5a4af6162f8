package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"solidarity"
	"solidarity/rules"
)

const responsibilityHelp = `Usage: solidarity responsibility [--format text|json] FILE

Determines the Member State responsible for examining an application (Regulation (EU)
2024/1351 Part III; Regulation (EU) No 604/2013 for applications registered before the
AMMR applies) from one applicant described as JSON (see rules/testdata/sar-italy.json).
Prints the responsible state, the criterion and its article, the evidence used, and why
every earlier criterion in the hierarchy did not apply. Reads standard input for "-".
The file holds personal data: it is read, never stored or logged.
`

func runResponsibility(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("responsibility", responsibilityHelp, stdout, stderr)
	format := fs.String("format", "text", "output `format`: text or json")
	if err := parse(fs, args, true); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return &solidarity.Error{Code: solidarity.EINVALID, Message: "responsibility takes one applicant file (or - for standard input)"}
	}
	name := fs.Arg(0)
	var in io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: "cannot read the file"}
		}
		defer f.Close()
		in = f
	}
	a, err := rules.ParseApplicant(name, in)
	if err != nil {
		return err
	}
	r := rules.Determine(a, rules.DefaultParams())
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "text":
		_, err := fmt.Fprintln(stdout, r.Explain())
		return err
	}
	return &solidarity.Error{Code: solidarity.EINVALID, Field: "--format", Message: "want text or json"}
}
