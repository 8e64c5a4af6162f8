package main

import (
	"context"
	"io"
	"strings"

	"solidarity"
	"solidarity/internal/app"
)

// runDeduction is the three steps of a deduction (Arts. 61, 62): a state's request,
// the Commission's assessment and the Council's decision.
var runDeduction = writeGroup("deduction", map[string]command{
	"request": runDeductionRequest,
	"assess":  runDeductionAssess,
	"decide":  runDeductionDecide,
})

func runDeductionRequest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, w := newWrite("deduction request", true, stdout, stderr)
	state := stateFlag(fs, "state", "Member `state` (Eurostat code)")
	article := fs.String("article", "", "61 or 62")
	amount := newAmountFlags(fs)
	reason := fs.String("reason", "", "the request's `reason`")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	if err := w.needYear(); err != nil {
		return err
	}
	m := state()
	p := amount.payload()
	p.Article, p.Reason = "Art. "+strings.TrimPrefix(*article, "Art. "), *reason
	return w.record(ctx, stdout, app.Existing, func(ctx context.Context, l solidarity.LedgerService) (*solidarity.Entry, bool, error) {
		return l.RequestDeduction(ctx, w.year, m, p, w.key)
	})
}

func runDeductionAssess(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, w := newWrite("deduction assess", true, stdout, stderr)
	ref := fs.String("ref", "", "the request `ref`")
	favourable := fs.Bool("favourable", false, "the assessment is favourable")
	summary := fs.String("summary", "", "assessment `summary`")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	if err := w.needYear(); err != nil {
		return err
	}
	p := solidarity.AssessmentPayload{Favourable: *favourable, Summary: *summary}
	return w.record(ctx, stdout, app.Existing, func(ctx context.Context, l solidarity.LedgerService) (*solidarity.Entry, bool, error) {
		return l.AssessDeduction(ctx, w.year, *ref, p, w.key)
	})
}

func runDeductionDecide(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, w := newWrite("deduction decide", true, stdout, stderr)
	ref := fs.String("ref", "", "the request `ref`")
	act := fs.String("act", "", "the legal `act`")
	granted := fs.Bool("granted", false, "the deduction is granted")
	amount := newAmountFlags(fs)
	if err := parse(fs, args, false); err != nil {
		return err
	}
	if err := w.needYear(); err != nil {
		return err
	}
	p := amount.payload()
	p.Granted, p.Act = *granted, *act
	if !p.Granted { // a refusal deducts nothing, whatever amount was given
		p.Full, p.Fraction, p.Relocations = false, "", 0
	}
	return w.record(ctx, stdout, app.Existing, func(ctx context.Context, l solidarity.LedgerService) (*solidarity.Entry, bool, error) {
		return l.DecideDeduction(ctx, w.year, *ref, p, w.key)
	})
}
