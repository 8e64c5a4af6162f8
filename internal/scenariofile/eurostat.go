package scenariofile

import (
	"bytes"
	"fmt"
	"io/fs"

	"solidarity"
	"solidarity/internal/eurostat"
)

// maxEurostatBytes bounds a Eurostat download named by a scenario: a filtered API
// download of migr_asyappctzm (27 states, all citizenships, ten years) is a few MB;
// the full bulk file is larger and should be filtered first.
const maxEurostatBytes = 64 << 20

// readEurostat takes the arrivals from a user's download of Eurostat's asylum
// applicants. The rows by citizenship become nationalities (named as the
// recognition data names them); what the TOTAL row has beyond them is the rest
// (nationality ""); an annual figure is spread evenly over its months and marked
// estimated. A state-month the file lacks stays absent, not zero. These are
// applications, not arrivals: the source says so.
func (d *draft) readEurostat(fsys fs.FS, name string) error {
	src, err := readFS(fsys, name, maxEurostatBytes)
	if err != nil {
		return &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: err.Error()}
	}
	f, err := eurostat.ParseApplicants(name, bytes.NewReader(src))
	if err != nil {
		return err
	}
	fact := solidarity.Fact{Source: fmt.Sprintf("Eurostat %s (%s, %s)", f.Dataset, name, f.Format), Certainty: "V"}
	if f.Updated != "" {
		fact.Source += ", updated " + f.Updated
	}
	type key struct {
		geo    solidarity.MemberState
		period string
	}
	total := map[key]int64{}
	citizens := map[key]int64{}
	for _, r := range f.Rows {
		k := key{r.Geo, r.Period}
		if r.Citizen == "" {
			total[k] = r.Value
		} else {
			citizens[k] += r.Value
		}
	}
	add := func(period string, geo solidarity.MemberState, nat string, v int64) error {
		months := []string{period}
		mean := float64(v)
		est := false
		if len(period) == 4 { // annual: spread evenly
			months = months[:0]
			for m := 1; m <= 12; m++ {
				months = append(months, period+"-"+fmt.Sprintf("%02d", m))
			}
			mean, est = mean/12, true
		}
		for _, m := range months {
			a, err := d.arrival(m, string(geo), nat, mean, est, fact)
			if err != nil {
				return &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: err.Error()}
			}
			if len(d.arrivals) >= maxArrivalRows {
				return &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: fmt.Sprintf("more than %d arrival rows in the scenario's files together", maxArrivalRows)}
			}
			d.arrivals = append(d.arrivals, *a)
		}
		return nil
	}
	for _, r := range f.Rows {
		k := key{r.Geo, r.Period}
		switch {
		case r.Citizen != "":
			if err := add(r.Period, r.Geo, eurostat.CitizenName(r.Citizen), r.Value); err != nil {
				return err
			}
		case citizens[k] == 0:
			if err := add(r.Period, r.Geo, "", r.Value); err != nil {
				return err
			}
		default:
			// The citizens' rows may not add up to the total exactly: the rest is
			// never negative.
			if rest := r.Value - citizens[k]; rest > 0 {
				if err := add(r.Period, r.Geo, "", rest); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
