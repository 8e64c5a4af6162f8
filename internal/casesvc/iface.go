package casesvc

import (
	"context"

	"solidarity"
	"solidarity/arrival"
	"solidarity/deadline"
)

// The service is the case flow of the root package's interfaces, as internal/client
// is over HTTP.
var (
	_ solidarity.DeadlineService[DueRow, Consequence, Confirmed]                 = (*Service)(nil)
	_ solidarity.CaseService[*arrival.List, *Registered, EventRequest, *Applied] = (*Service)(nil)
	_ solidarity.CaseReader[CaseRow, *CaseView, *arrival.Person, *Determination] = (*Service)(nil)
)

// CaseRow is a case in a list with its next time limit (Next), as the case lists
// show it: the limit says whether it ends on a day or at an instant (DueText), which
// the record's NextDue alone does not.
type CaseRow struct {
	Record *solidarity.CaseRecord `json:"case"`
	// Next is the case's next time limit (Service.Next); nil when none runs.
	Next *deadline.Due `json:"next,omitempty"`
}

// CaseRows lists the cases f selects, as Cases, each with its next time limit.
func (s *Service) CaseRows(ctx context.Context, f solidarity.CaseFilter) ([]CaseRow, error) {
	recs, err := s.Cases(ctx, f)
	if err != nil {
		return nil, err
	}
	var rows []CaseRow // nil for none, as Cases
	for _, r := range recs {
		row := CaseRow{Record: r}
		next, ok, err := s.Next(r)
		if err != nil {
			return nil, err
		}
		if ok {
			row.Next = &next
		}
		rows = append(rows, row)
	}
	return rows, nil
}
