package web

import (
	"encoding/json"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/internal/i18n"
)

// Each ledger entry said as one line a reader understands ("DE pledged 500
// relocations of applicants, Art. 57(1) AMMR"): a table of sentences, one per entry
// type, each a message of the page's locale. The raw payload stays beside it, behind
// a toggle, for whoever checks the line against the chain.

// sentence says an entry in l, or false when its payload does not decode as its
// type's (entryLine then says the entry's type).
type sentence func(l *i18n.Locale, e *solidarity.Entry) (string, bool)

// sentences is the table of the entry types that are not deliveries; deliveries are
// said from the table of measures (deliveryLine), so that a new measure needs no row.
var sentences = map[solidarity.EntryType]sentence{
	solidarity.CycleCreated: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		return l.T("The pool of %s was established, %s", strconv.Itoa(e.Cycle), e.LegalBasis), true
	},
	solidarity.CycleAmended: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		return l.T("The pool of %s was amended, %s", strconv.Itoa(e.Cycle), e.LegalBasis), true
	},
	solidarity.StatusDecided: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		var p solidarity.StatusPayload
		if json.Unmarshal(e.Payload, &p) != nil {
			return "", false
		}
		var flags []string
		for _, f := range []struct {
			on    bool
			label string
		}{
			{p.UnderPressure, msg("under migratory pressure")},
			{p.AtRisk, msg("at risk of migratory pressure")},
			{p.SignificantSituation, msg("facing a significant migratory situation")},
			{p.Benefitting, msg("benefitting from the pool")},
		} {
			if f.on {
				flags = append(flags, l.T(f.label))
			}
		}
		if len(flags) == 0 {
			return l.T("%s was found in no particular situation, %s", string(e.State), e.LegalBasis), true
		}
		return l.T("%s was found %s, %s", string(e.State), strings.Join(flags, "; "), e.LegalBasis), true
	},
	solidarity.PledgeMade: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		a, ok := pledgeAmount(l, e)
		return l.T("%s pledged %s, %s", string(e.State), a, e.LegalBasis), ok
	},
	solidarity.PledgeChanged: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		a, ok := pledgeAmount(l, e)
		return l.T("%s changed its pledge to %s, %s", string(e.State), a, e.LegalBasis), ok
	},
	solidarity.DeductionRequested: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		var p solidarity.DeductionPayload
		if json.Unmarshal(e.Payload, &p) != nil {
			return "", false
		}
		return l.T("%s requested a deduction of %s, %s", string(e.State), deductionExtent(l, p), e.LegalBasis), true
	},
	solidarity.DeductionAssessed: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		var p solidarity.AssessmentPayload
		if json.Unmarshal(e.Payload, &p) != nil {
			return "", false
		}
		if p.Favourable {
			return l.T("The Commission assessed the deduction request of %s favourably, %s", string(e.State), e.LegalBasis), true
		}
		return l.T("The Commission assessed the deduction request of %s unfavourably, %s", string(e.State), e.LegalBasis), true
	},
	solidarity.DeductionDecided: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		var p solidarity.DeductionPayload
		if json.Unmarshal(e.Payload, &p) != nil {
			return "", false
		}
		if p.Granted {
			return l.T("The Council granted %s a deduction of %s, %s", string(e.State), deductionExtent(l, p), e.LegalBasis), true
		}
		return l.T("The Council refused the deduction requested by %s, %s", string(e.State), e.LegalBasis), true
	},
	solidarity.OffsetRequested: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		var p solidarity.OffsetPayload
		if json.Unmarshal(e.Payload, &p) != nil {
			return "", false
		}
		return l.T("%s asked %s to take over %s applications as offsets, %s", string(e.State), string(p.Counterpart), l.Int(p.Applications), e.LegalBasis), true
	},
	solidarity.OffsetOffered: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		var p solidarity.OffsetPayload
		if json.Unmarshal(e.Payload, &p) != nil {
			return "", false
		}
		return l.T("%s offered to take over %s applications from %s as offsets, %s", string(e.State), l.Int(p.Applications), string(p.Counterpart), e.LegalBasis), true
	},
	solidarity.OffsetReplied: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		var p solidarity.ReplyPayload
		if json.Unmarshal(e.Payload, &p) != nil {
			return "", false
		}
		return l.T("%s accepted %s applications as offsets, %s", string(e.State), l.Int(p.Accepted), e.LegalBasis), true
	},
	solidarity.ArrivalRegistered: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		var p solidarity.ArrivalPayload
		if json.Unmarshal(e.Payload, &p) != nil {
			return "", false
		}
		n := 0
		for _, f := range p.Families {
			n += len(f.Cases)
		}
		return l.T("Arrival %s registered in %s: %s cases opened, %s", e.Ref, string(e.State), l.Int(int64(n)), e.LegalBasis), true
	},
	solidarity.CaseEvent: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		var p solidarity.CaseEventPayload
		if json.Unmarshal(e.Payload, &p) != nil {
			return "", false
		}
		return l.T("Case %s: %s, %s", e.Ref, strings.NewReplacer("_", " ", "-", " ").Replace(p.Event), e.LegalBasis), true
	},
	solidarity.CasesErased: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		var p solidarity.ErasurePayload
		if json.Unmarshal(e.Payload, &p) != nil {
			return "", false
		}
		return l.T("The personal records of %s closed cases were erased, %s", l.Int(int64(p.Erased)), e.LegalBasis), true
	},
	solidarity.CasesResealed: func(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
		var p solidarity.ResealPayload
		if json.Unmarshal(e.Payload, &p) != nil {
			return "", false
		}
		return l.T("The personal records of %s cases were encrypted under a new key", l.Int(int64(len(p.Cases)))), true
	},
}

// entryLine says e in l: its row of sentences, its delivery's, or, for a type
// without one or a payload that does not decode, its type and state.
func entryLine(l *i18n.Locale, e *solidarity.Entry) string {
	if say, ok := sentences[e.Type]; ok {
		if s, ok := say(l, e); ok {
			return s
		}
	} else if s, ok := deliveryLine(l, e); ok {
		return s
	}
	if e.State != "" {
		return l.T("%s entry about %s, %s", string(e.Type), string(e.State), e.LegalBasis)
	}
	return l.T("%s entry, %s", string(e.Type), e.LegalBasis)
}

// deliveryLine says a delivery of any measure (measure.go): persons relocated, euro
// paid, or alternative measures valued in euro.
func deliveryLine(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
	d, _, ok := solidarity.DeliveryOf(e.Type)
	if !ok {
		return "", false
	}
	var p solidarity.DeliveryPayload
	if json.Unmarshal(e.Payload, &p) != nil {
		return "", false
	}
	switch e.Type {
	case solidarity.RelocationDelivered:
		return l.T("%s relocated %s persons, %s", string(e.State), l.Int(p.Relocations), e.LegalBasis), true
	case solidarity.PaymentMade:
		return l.T("%s paid EUR %s, %s", string(e.State), euro(l, p.EURCents), e.LegalBasis), true
	case solidarity.AlternativeDelivered:
		return l.T("%s delivered alternative measures worth EUR %s, %s", string(e.State), euro(l, p.EURCents), e.LegalBasis), true
	}
	amount := l.Int(p.Relocations)
	if d.Unit() == solidarity.EuroCents {
		amount = l.T("EUR %s", euro(l, p.EURCents))
	}
	return l.T("%s delivered %s of %s, %s", string(e.State), amount, d.Name(), e.LegalBasis), true
}

// pledgeAmounts says a pledge's amount per pledge type: the unit and the measure in
// one phrase, since languages order them differently.
var pledgeAmounts = map[solidarity.PledgeType]string{
	solidarity.RelocationApplicants:    msg("%s relocations of applicants"),
	solidarity.RelocationBeneficiaries: msg("%s relocations of beneficiaries"),
	solidarity.Offset:                  msg("%s responsibility offsets"),
	solidarity.Financial:               msg("a financial contribution of EUR %s"),
	solidarity.Alternative:             msg("alternative measures worth EUR %s"),
}

// pledgeAmount says the amount of a pledge entry, from the table of measures for a
// type pledgeAmounts lacks.
func pledgeAmount(l *i18n.Locale, e *solidarity.Entry) (string, bool) {
	var p solidarity.PledgePayload
	if json.Unmarshal(e.Payload, &p) != nil {
		return "", false
	}
	m, ok := solidarity.MeasureOf(p.Type)
	if !ok {
		return l.T("nothing"), p.Type == solidarity.NoPledge
	}
	amount := l.Int(p.Relocations)
	if m.Unit == solidarity.EuroCents {
		amount = euro(l, p.EURCents)
	}
	if key, ok := pledgeAmounts[p.Type]; ok {
		return l.T(key, amount), true
	}
	return l.T("%s of %s", amount, l.T(m.Label)), true
}

// deductionExtent says how much a deduction takes: all of the pledge, a fraction of
// it, or a number of relocations.
func deductionExtent(l *i18n.Locale, p solidarity.DeductionPayload) string {
	switch {
	case p.Full:
		return l.T("the whole pledge")
	case p.Fraction != "":
		return l.T("%s of the pledge", p.Fraction)
	}
	return l.T("%s relocations", l.Int(p.Relocations))
}

// euro writes cents as euro with two decimals in l's form.
func euro(l *i18n.Locale, c solidarity.Cents) string {
	neg := c < 0
	if neg {
		c = -c
	}
	s := strconv.FormatInt(int64(c/100), 10) + "." + strconv.FormatInt(int64(c%100)+100, 10)[1:]
	if neg {
		s = "-" + s
	}
	return l.Dec(s, 2)
}

func init() {
	// The measures' labels, which pledgeAmount shows for a measure without a phrase.
	messageSources = append(messageSources, func() []string {
		var out []string
		for _, m := range solidarity.Measures() {
			out = append(out, m.Label)
		}
		return out
	})
}
