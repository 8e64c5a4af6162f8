package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Format is an output format of the CLI.
type Format string

const (
	Table Format = "table"
	CSV   Format = "csv"
	JSON  Format = "json"
)

// ParseFormat validates a --format value.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case Table, CSV, JSON:
		return Format(s), nil
	}
	return "", fmt.Errorf("unknown format %q (want table, csv or json)", s)
}

func str(n *Num) string {
	if n == nil {
		return "unknown"
	}
	return string(*n)
}

// pct renders a coverage ratio as a percentage.
func pct(n *Num, known bool) string {
	if !known {
		return "unknown"
	}
	if n == nil {
		return "n/a"
	}
	var f float64
	fmt.Sscan(string(*n), &f)
	return fmt.Sprintf("%.1f%%", f*100)
}

var poolHeader = []string{"state", "name", "share_percent", "quota", "fair_share", "fair_share_eur",
	"status", "deducted", "obligation", "pledged_units", "coverage", "shortfall", "art63_2_may_offer_offsets"}

func (p *Pool) rows() [][]string {
	var out [][]string
	for _, s := range p.States {
		status := strings.Join(s.Statuses, ",")
		if status == "" {
			status = "-"
		}
		cov := pct(s.Coverage, s.PledgeKnown)
		if !s.HasObligation {
			cov = "n/a"
		}
		out = append(out, []string{s.State, s.Name, str(s.SharePercent), str(s.Quota), fmt.Sprint(s.FairShare),
			string(s.FairShareEUR), status, str(s.Deducted), str(s.Obligation), str(s.PledgedUnits),
			cov, str(s.Shortfall), s.MayOfferOffsets})
	}
	return out
}

// Write writes the pool in format f.
func (p *Pool) Write(w io.Writer, f Format) error {
	switch f {
	case JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	case CSV:
		cw := csv.NewWriter(w)
		cw.Write(poolHeader)
		cw.WriteAll(p.rows())
		return cw.Error()
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "%s\n", p.Cycle.Title)
	fmt.Fprintf(w, "Reference number (Art. 57(1)): %d relocations or %s; Commission proposal (Art. 12(2)): %d relocations or %s\n",
		p.Union.Reference.Relocations, FormatEUR(p.Union.Reference.EUR), p.Union.Proposal.Relocations, FormatEUR(p.Union.Proposal.EUR))
	fmt.Fprintf(w, "Apportionment: %s\n\n", p.MethodDescription)
	fmt.Fprintln(tw, strings.Join([]string{"State", "Name", "Share %", "Quota", "Fair share", "Fair share EUR", "Status",
		"Deducted", "Obligation", "Pledged", "Coverage", "Shortfall", "Art.63(2)"}, "\t")+"\t")
	for _, r := range p.rows() {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	fmt.Fprintf(tw, "Total\t\t100.0000\t%d.00\t%d\t%s\t\t\t%s\t%s\t\t\t\t\n", p.Union.Reference.Relocations,
		p.Union.FairShareTotal, p.Union.FairShareEURTotal, str(p.Union.ObligationTotal), str(p.Union.PledgedUnitsKnown))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nArt. 63(1): relocation pledges %d vs threshold %s (50%% of the Commission-proposed %d): benefitting states may request offsets: %s\n",
		p.Union.RelocationPledges, str(p.Union.OffsetThreshold),
		p.Union.Proposal.Relocations, p.Union.BenefittingMayRequest)
	if p.Union.SARShare != nil {
		fmt.Fprintf(w, "SAR indicative share (Art. 57(2)): %s of the pool = %s relocations [%s]\n", str(p.Union.SARShare), str(p.Union.SARRelocations), p.Union.SARFact.Certainty)
	}
	footnotes(w, append(append(append([]string{}, p.Notes...), p.Warnings...), p.Caveats...))
	return nil
}

var keyHeader = []string{"state", "name", "population", "gdp_meur", "population_share", "gdp_share", "share", "share_percent", "share_exact"}

// Write writes the key in format f.
func (k *Key) Write(w io.Writer, f Format) error {
	switch f {
	case JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(k)
	case CSV:
		cw := csv.NewWriter(w)
		cw.Write(keyHeader)
		for _, s := range k.States {
			cw.Write([]string{s.State, s.Name, str(s.Population), str(s.GDP), str(s.PopulationShare), str(s.GDPShare), str(s.Share), str(s.SharePercent), s.ShareExact})
		}
		cw.Flush()
		return cw.Error()
	}
	fmt.Fprintf(w, "Key %s (%s)\n\n", k.Name, k.Article)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "State\tName\tPopulation\tGDP (EUR m)\tPop. share\tGDP share\tShare %\t")
	for _, s := range k.States {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", s.State, s.Name, str(s.Population), str(s.GDP),
			trim(str(s.PopulationShare), 6), trim(str(s.GDPShare), 6), str(s.SharePercent))
	}
	fmt.Fprintf(tw, "Total\t\t\t\t\t\t100.0000\t\n")
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nShares sum to exactly %s.\n", k.Sum)
	footnotes(w, k.Caveats)
	return nil
}

func trim(s string, decimals int) string {
	if i := strings.IndexByte(s, '.'); i >= 0 && len(s) > i+1+decimals {
		return s[:i+1+decimals]
	}
	return s
}

func footnotes(w io.Writer, notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintln(w)
	for i, n := range notes {
		fmt.Fprintf(w, "[%d] %s\n", i+1, n)
	}
}
