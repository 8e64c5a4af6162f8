package e2e_test

import (
	"crypto/rand"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/internal/cyclefile"
)

// potentialsNames are the fictional people of TestProposalPotentialsInBrowser's
// landing. The server's log must never hold them.
var potentialsNames = []string{"Ana Potenzia", "Ben Potenzia", "Cai Valora", "Dia Valora", "Eli Valora", "Fen Ritorna",
	"Gia Ritorna", "Hal Futura", "Ida Stima", "Jon Stima", "Kai Mezzo", "Lia Mezzo", "Max Mezzo", "Noa Resto"}

// TestProposalPotentialsInBrowser: the coordinator accepts part of a first proposal
// (so that something is allocated this year), then asks for a proposal with
// potentials for the candidates left and reads the potentials per state and the
// year so far against its hindsight optimum (e2e/proposal-potentials.test.mjs). The
// service's clock runs from 1 June of the current year, so that the year has weeks
// left whatever the day the test runs (on the real clock in December the expected
// rest of the year rounds to no family and the potentials are zero).
func TestProposalPotentialsInBrowser(t *testing.T) {
	node := prerequisites(t)
	ctx := t.Context()
	svc, cs := caseServices(t, "potentials.db")
	year := time.Now().UTC().Year()
	if !slices.Contains(cyclefile.Shipped(), year) {
		t.Skipf("no shipped cycle for %d: the browser test of the proposal needs one", year)
	}
	start, clock := time.Now(), time.Date(year, 6, 1, 12, 0, 0, 0, time.UTC)
	svc.Now = func() time.Time { return clock.Add(time.Since(start)) }
	system := solidarity.NewContextWithUser(ctx, solidarity.System)
	for _, p := range []struct {
		m solidarity.MemberState
		n int64
	}{{"DE", 8}, {"FR", 6}, {"ES", 5}} {
		if _, _, err := svc.Pledge(system, year, p.m, solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: p.n}, ""); err != nil {
			t.Fatal(err)
		}
	}
	landed := clock.Add(-4 * 24 * time.Hour)
	person := func(ref, fam, name string, langs []string, prefs ...solidarity.MemberState) arrival.Person {
		return arrival.Person{Ref: ref, Family: solidarity.FamilyID(fam), Name: name, AssessedAge: 30, Sex: arrival.OtherSx,
			Nationality: "ER", Languages: langs, Preferences: prefs}
	}
	n := potentialsNames
	list := &arrival.List{
		Arrival: solidarity.Arrival{Vessel: "Potential Star (fictional)", Port: "Pozzallo", At: landed, SAR: true, Benefitting: "IT"},
		Persons: []arrival.Person{
			person("P1", "K1", n[0], []string{"de"}, "DE"), person("P2", "K1", n[1], nil),
			person("P3", "K2", n[2], []string{"fr"}, "FR", "ES"), person("P4", "K2", n[3], nil), person("P5", "K2", n[4], nil),
			person("P6", "K3", n[5], []string{"es"}, "ES", "FR"), person("P7", "K3", n[6], nil),
			person("P8", "", n[7], []string{"es"}, "ES"),
			person("P9", "K5", n[8], []string{"fr"}, "FR", "DE"), person("P10", "K5", n[9], nil),
			person("P11", "K6", n[10], []string{"de"}, "DE", "FR"), person("P12", "K6", n[11], nil), person("P13", "K6", n[12], nil),
			person("P14", "", n[13], nil, "ES", "DE"),
		},
	}
	registerCandidates(t, system, cs, list, landed, 0, 2, 5, 7, 8, 10, 13)
	password := rand.Text()
	if err := svc.AddUser(system, &solidarity.User{Name: "coordinator", Role: solidarity.Coordinator}, password); err != nil {
		t.Fatal(err)
	}
	shots := os.Getenv("SOLIDARITY_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	env := []string{"SOLIDARITY_COORDINATOR_USER=coordinator", "SOLIDARITY_COORDINATOR_PASSWORD=" + password,
		"SOLIDARITY_FAMILIES=7", "SOLIDARITY_YEAR=" + strconv.Itoa(year), "SOLIDARITY_NAMES=" + strings.Join(potentialsNames, ";"),
		"SOLIDARITY_SCREENSHOTS=" + shots}
	ts, logs := caseFlowServer(t, svc, cs)
	runNode(t, node, "proposal-potentials.test.mjs", append(env, "SOLIDARITY_URL="+ts.URL)...)
	checkLogNames(t, logs, "/relocation/proposal", potentialsNames)
}
