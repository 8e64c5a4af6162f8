package web

import (
	"net/http"

	"solidarity"
	"solidarity/internal/casesvc"
)

// The matching API (issue 5): a proposal of Member States of relocation for the
// relocation candidates, with the officer's pins and forbids and the explanations
// asked for, and the acceptance of placements, each an allocation (casesvc.Assign).
// The case service decides who may (the coordinator) and logs every read of a
// personal record the proposal needs; answers carry family and case IDs, never a
// person.

// AcceptRequest is the body of POST /api/v1/relocation/proposal/accept.
type AcceptRequest struct {
	Placements []casesvc.Placement `json:"placements"`
}

// AcceptResult is its answer: one result per placement, in order.
type AcceptResult struct {
	Allocated int                `json:"allocated"`
	Failed    int                `json:"failed"`
	Results   []casesvc.Accepted `json:"results"`
}

func (s *Server) handleProposal(w http.ResponseWriter, r *http.Request) {
	var req casesvc.ProposalRequest
	if err := decodeJSON(r, &req); err != nil {
		s.apiError(w, r, err)
		return
	}
	p, err := s.cases.Proposal(r.Context(), req)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) handleAcceptProposal(w http.ResponseWriter, r *http.Request) {
	key, err := idempotencyKey(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	var req AcceptRequest
	if err := decodeJSON(r, &req); err != nil {
		s.apiError(w, r, err)
		return
	}
	res, err := s.cases.Accept(r.Context(), req.Placements, key)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.acceptResult(res))
}

func (s *Server) acceptResult(res []casesvc.Accepted) AcceptResult {
	out := AcceptResult{Results: res}
	for _, a := range res {
		if !a.Allocated {
			out.Failed++
			continue
		}
		out.Allocated++
		if !a.Replayed {
			s.metrics.appends.WithLabelValues(string(solidarity.CaseEvent)).Inc()
		}
	}
	return out
}
