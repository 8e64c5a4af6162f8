package solidarity_test

import (
	"slices"
	"testing"

	"solidarity"
)

// TestMeasureTable: the table gives the pledge types, units, deliveries and legal
// bases the ledger has always written.
func TestMeasureTable(t *testing.T) {
	want := []solidarity.PledgeType{solidarity.RelocationApplicants, solidarity.RelocationBeneficiaries, solidarity.Offset,
		solidarity.Financial, solidarity.Alternative, solidarity.NoPledge}
	if got := solidarity.PledgeTypes(); !slices.Equal(got, want) {
		t.Fatalf("pledge types %v, want %v", got, want)
	}
	for _, tc := range []struct {
		t                   solidarity.PledgeType
		inUnits, relocation bool
	}{
		{solidarity.RelocationApplicants, true, true}, {solidarity.RelocationBeneficiaries, true, true},
		{solidarity.Offset, true, false}, {solidarity.Financial, false, false}, {solidarity.Alternative, false, false},
		{solidarity.NoPledge, false, false}, {"relocation", false, false},
	} {
		if tc.t.InUnits() != tc.inUnits || tc.t.Relocation() != tc.relocation {
			t.Errorf("%s: in units %v, relocation %v", tc.t, tc.t.InUnits(), tc.t.Relocation())
		}
	}
	deliveries := map[solidarity.EntryType]string{solidarity.RelocationDelivered: "Art. 67 AMMR; Art. 68 AMMR",
		solidarity.PaymentMade: "Art. 64 AMMR", solidarity.AlternativeDelivered: "Art. 65 AMMR"}
	if got := solidarity.DeliveryTypes(); !slices.Equal(got, []solidarity.EntryType{solidarity.RelocationDelivered, solidarity.PaymentMade, solidarity.AlternativeDelivered}) {
		t.Fatalf("delivery types %v", got)
	}
	for i, d := range solidarity.Deliveries() {
		if d.Article.String() != deliveries[d.Type] {
			t.Errorf("%s: legal basis %q, want %q", d.Type, d.Article, deliveries[d.Type])
		}
		if _, j, _ := solidarity.DeliveryOf(d.Type); j != i {
			t.Errorf("%s at %d, DeliveryOf says %d", d.Type, i, j)
		}
	}
	for name, want := range map[string]solidarity.EntryType{"relocation": solidarity.RelocationDelivered, "payment": solidarity.PaymentMade, "alternative": solidarity.AlternativeDelivered} {
		if d, ok := solidarity.DeliveryNamed(name); !ok || d.Type != want {
			t.Errorf("DeliveryNamed(%q) = %v, want %s", name, d, want)
		}
	}
	if _, ok := solidarity.DeliveryNamed("offset"); ok {
		t.Error("offset names no delivery")
	}
	if _, _, ok := solidarity.DeliveryOf(solidarity.OffsetReplied); ok {
		t.Error("an offset reply is not a delivery entry")
	}
	var a solidarity.Amounts
	a.Set(solidarity.PaymentMade, 7)
	a.Set(solidarity.PledgeMade, 9) // not a delivery: nothing
	if a.Of(solidarity.PaymentMade) != 7 || a.Of(solidarity.RelocationDelivered) != 0 || a.Of(solidarity.PledgeMade) != 0 {
		t.Errorf("amounts %v", a)
	}
}

// TestAddMeasure: a row added to the table is a pledge type with its unit, a
// delivery with its rule, and goes away again.
func TestAddMeasure(t *testing.T) {
	d := &solidarity.Delivery{Type: "capacity.delivered", Article: solidarity.LegalBases{solidarity.AMMR.Art(56, 2)}, Column: "capacity", Rule: "capacity is places"}
	remove := solidarity.AddMeasure(solidarity.Measure{Pledge: "capacity", Unit: solidarity.EuroCents, Valuation: solidarity.AtRatio, Delivery: d})
	if !solidarity.PledgeType("capacity").Valid() || solidarity.PledgeType("capacity").InUnits() {
		t.Fatal("the new pledge type is not a pledge in euro")
	}
	if err := (solidarity.PledgePayload{Type: "capacity", Relocations: 3}).Validate(); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Errorf("a capacity pledge in persons: %v", err)
	}
	if err := (solidarity.DeliveryPayload{EURCents: 3}).Validate("capacity.delivered"); err != nil {
		t.Error(err)
	}
	if err := (solidarity.DeliveryPayload{Relocations: 3}).Validate("capacity.delivered"); solidarity.ErrorCode(err) != solidarity.EINVALID || err.(*solidarity.Error).Message != d.Rule {
		t.Errorf("a capacity delivery in persons: %v", err)
	}
	if !slices.Contains(solidarity.EntryTypes(), "capacity.delivered") {
		t.Error("the delivery is not an entry type")
	}
	remove()
	if solidarity.PledgeType("capacity").Valid() || len(solidarity.Deliveries()) != 3 {
		t.Error("the row was not removed")
	}
}
