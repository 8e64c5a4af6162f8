package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// PoolCSVHeader names the columns of WritePoolCSV: each is the JSON field of a state's
// row that it carries, so that a reader of both can match them by name.
var PoolCSVHeader = []string{"state", "name", "share_percent", "quota", "fair_share", "fair_share_eur",
	"statuses", "benefitting", "deducted", "obligation", "pledge_known", "pledged_units", "coverage",
	"shortfall", "may_offer_offsets"}

// WriteCSV writes the dashboard's table of p for spreadsheets: one row per state under
// a header row, numbers as the JSON has them (dot decimal, no thousands separators) and
// an unknown figure as an empty cell, never a word a spreadsheet would read as text.
// Unlike Write's CSV, which is the CLI's table, coverage stays a ratio.
func (p *Pool) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(PoolCSVHeader)
	for _, s := range p.States {
		cw.Write([]string{s.State, s.Name, cell(s.SharePercent), cell(s.Quota), strconv.FormatInt(s.FairShare, 10),
			string(s.FairShareEUR), strings.Join(s.Statuses, " "), strconv.FormatBool(s.Benefitting),
			cell(s.Deducted), cell(s.Obligation), strconv.FormatBool(s.PledgeKnown), cell(s.PledgedUnits),
			cell(s.Coverage), cell(s.Shortfall), s.MayOfferOffsets})
	}
	cw.Flush()
	return cw.Error()
}

// cell is n as written, empty when unknown.
func cell(n *Num) string {
	if n == nil {
		return ""
	}
	return string(*n)
}
