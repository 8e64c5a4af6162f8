package solidarity

import "fmt"

// Validation of the payloads that carry figures. The service calls these before it
// writes anything, for every write path alike (API, forms, CLI); the cycle file applies
// the same bounds (bounds.go) when it is parsed. A deduction's extent is checked by the
// service (ledgersvc checkExtent), whose fraction goes through internal/bound's exact
// parser, with the same bound on relocations.

// Validate checks a pledge (Art. 56(2), Art. 57(1)): a known type, and an amount in the
// unit of its measure (measure.go), from 1 to the bound. A pledge of nothing is its own
// type, NoPledge ("none"), and carries no amount: a counted pledge without an amount is
// refused, so that a forgotten flag cannot replace a pledge with nothing.
func (p PledgePayload) Validate() error {
	if p.Type == NoPledge {
		if p.Relocations != 0 || p.EURCents != 0 {
			return &Error{Code: EINVALID, Field: "type", Message: "a pledge of type none carries no amount"}
		}
		return nil
	}
	m, ok := MeasureOf(p.Type)
	if !ok {
		return &Error{Code: EINVALID, Field: "type", Article: "Art. 56(2) AMMR",
			Message: fmt.Sprintf("pledge type %q is not one of %v", p.Type, PledgeTypes())}
	}
	if m.Unit == Persons {
		if p.EURCents != 0 {
			return &Error{Code: EINVALID, Field: "eur_cents", Article: "Art. 56(2) AMMR",
				Message: fmt.Sprintf("a %s pledge is counted in relocations, not euros", p.Type)}
		}
		if p.Relocations <= 0 {
			return &Error{Code: EINVALID, Field: "relocations", Article: "Art. 56(2) AMMR",
				Message: fmt.Sprintf("a %s pledge needs a positive number of relocations (pledge type none records a pledge of nothing)", p.Type)}
		}
		return CheckPersons("relocations", "Art. 56(2) AMMR", p.Relocations, 1)
	}
	if p.Relocations != 0 {
		return &Error{Code: EINVALID, Field: "relocations", Article: "Art. 56(2) AMMR",
			Message: fmt.Sprintf("a %s pledge is counted in euros, not relocations", p.Type)}
	}
	if p.EURCents <= 0 {
		return &Error{Code: EINVALID, Field: "eur_cents", Article: "Art. 56(2) AMMR",
			Message: fmt.Sprintf("a %s pledge needs a positive amount in euros (pledge type none records a pledge of nothing)", p.Type)}
	}
	return CheckCents("eur_cents", "Art. 56(2) AMMR", p.EURCents, 1)
}

// Validate checks a delivery of type t (one of the measures' deliveries, measure.go):
// a positive number of persons (relocations, Arts. 67–68) or a positive amount in euro
// (a payment, Art. 64; alternative measures, Art. 65), each within the bounds.
func (p DeliveryPayload) Validate(t EntryType) error {
	d, _, ok := DeliveryOf(t)
	if !ok {
		return &Error{Code: EINVALID, Field: "type", Message: fmt.Sprintf("%q is not a delivery", t)}
	}
	article := d.Article.String()
	if d.Unit() == Persons {
		if p.Relocations <= 0 || p.EURCents != 0 {
			return &Error{Code: EINVALID, Field: "relocations", Article: article, Message: d.Rule}
		}
		return CheckPersons("relocations", article, p.Relocations, 1)
	}
	if p.EURCents <= 0 || p.Relocations != 0 {
		return &Error{Code: EINVALID, Field: "eur_cents", Article: article, Message: d.Rule}
	}
	return CheckCents("eur_cents", article, p.EURCents, 1)
}

// Amount returns the delivery's amount in the unit of delivery type t.
func (p DeliveryPayload) Amount(t EntryType) int64 {
	d, _, ok := DeliveryOf(t)
	if !ok {
		return 0
	}
	return d.Unit().Amount(p.Relocations, p.EURCents)
}

// Validate checks an offset request or offer (Arts. 63, 69(1)): a positive number of
// applications within the bound, and a Member State as the counterpart.
func (p OffsetPayload) Validate() error {
	if err := CheckPersons("applications", "Art. 69(1) AMMR", p.Applications, 1); err != nil {
		return err
	}
	if !p.Counterpart.Valid() {
		return &Error{Code: EINVALID, Field: "counterpart", Article: "Art. 69(1) AMMR", Message: "the counterpart must be a Member State"}
	}
	return nil
}

// Validate checks a reply to an offset (Art. 69(2)): a number of applications accepted
// within the bound (the service checks it against the number asked).
func (p ReplyPayload) Validate() error {
	return CheckPersons("accepted", "Art. 69(2) AMMR", p.Accepted, 0)
}
