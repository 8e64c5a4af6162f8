package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"solidarity/internal/cyclefile"
)

const cyclesHelp = `Usage: solidarity cycles

Lists the cycles shipped in the binary. Pass a year to 'solidarity pool --cycle', or write
your own cycle file (see docs/cycle-file.md) and pass its path.
`

func runCycles(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("cycles", cyclesHelp, stdout, stderr)
	if err := parse(fs, args, false); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "YEAR\tRELOCATIONS\tEUR\tKIND\tTITLE")
	for _, y := range cyclefile.Shipped() {
		c, err := cyclefile.Open(fmt.Sprint(y))
		if err != nil {
			return err
		}
		kind := "adopted"
		if c.Illustrative {
			kind = "illustrative"
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\n", c.Year, c.Reference.Relocations, c.Reference.EUR, kind, c.Title)
	}
	return tw.Flush()
}
