package scenario

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/rules"
)

// The Diciotti case (historical-data.md §3): in August 2018 the Italian coast guard
// ship Ubaldo Diciotti took aboard 190 people from an overcrowded boat in the Maltese
// search-and-rescue area. 13 were evacuated to Lampedusa for medical reasons; the
// ship docked at Catania on 20 August with 177 aboard, and the Interior Minister
// refused to let them off until other states took a share. The people came off in
// three landings: the 27 unaccompanied minors (22 August), about 13 medical cases
// (24–25 August) and everyone else, 137 (the night of 25–26 August). Ireland took 16,
// Albania none, the Italian bishops' conference about 100 (§3.2).
//
// The replay keeps the days of the month and moves the year to 2026, after the AMMR
// applies (rules.DefaultParams().AMMRApplies), so that Part III and the relocation
// rules of today apply to the same ship. Times are UTC; local time at Catania was
// UTC+2 (CEST).
//
// Counts, with the flags of historical-data.md §3.1:
//
//	190 rescued                        V
//	 13 evacuated to Lampedusa         V
//	177 aboard at Catania              V (and D: 190 − 13)
//	 27 unaccompanied minors           V
//	 13 medical disembarkations        D: 177 − 27 − 137 (the spec's "~13", D/?); the
//	                                   sources name 7 women and 3 men taken to
//	                                   Messina and 3 people hospitalised: 10 + 3 = 13
//	137 remaining                      V/? (some outlets report 138–140)
//
// so that 190 = 13 + 177 and 177 = 27 + 13 + 137 exactly.
const (
	// Vessel is the ship: an Italian coast guard patrol ship.
	Vessel = "Ubaldo Diciotti"
	// Rescued is the number of people taken aboard (V).
	Rescued = 190
	// AtCatania is the number aboard when the ship docked at Catania (V).
	AtCatania = 177
)

// benefitting is the Member State where everyone landed.
const benefitting solidarity.MemberState = "IT"

// Landing is one disembarkation of the scenario: where, when, how many people, and how
// sure the count is.
type Landing struct {
	ID      solidarity.ArrivalID
	Port    string
	At      time.Time // UTC
	Persons int
	Who     string // who came off, as the sources tell it
	Flag    string // confidence of Persons: V, D, ? (historical-data.md) or A (assumed here)
	Source  string
}

// Landings returns the four disembarkations of the Diciotti scenario in order. The
// hours are assumptions (A) placed as the sources tell the day: the minors came off
// on a Wednesday night, the medical cases on a Saturday afternoon, the others from
// around midnight into Sunday.
func Landings() []Landing {
	return []Landing{
		{
			ID: "ARR-2026-DICIOTTI-1", Port: "Lampedusa", At: time.Date(2026, 8, 17, 8, 30, 0, 0, time.UTC), Persons: 13,
			Who:    "medical evacuations to Lampedusa before the ship docked",
			Flag:   "V",
			Source: "historical-data.md §3.1 (2018-08, before docking: 13, V)",
		},
		{
			ID: "ARR-2026-DICIOTTI-2", Port: "Catania", At: time.Date(2026, 8, 22, 21, 30, 0, 0, time.UTC), Persons: 27,
			Who:    "unaccompanied minors, one of them a girl",
			Flag:   "V",
			Source: "historical-data.md §3.1 (2018-08-22: 27, V); the girl: corporatedispatch.com/the-update-diciotti-migrants-saga",
		},
		{
			ID: "ARR-2026-DICIOTTI-3", Port: "Catania", At: time.Date(2026, 8, 25, 14, 0, 0, 0, time.UTC), Persons: 13,
			Who:    "medical disembarkations: 7 women and 3 men taken to Messina, 3 people hospitalised in Catania",
			Flag:   "D",
			Source: "historical-data.md §3.1 (2018-08-24/25: ~13, D: 177-27-137); popefrancisdaily.com/shelter-for-immigrants-from-the-diciotti",
		},
		{
			ID: "ARR-2026-DICIOTTI-4", Port: "Catania", At: time.Date(2026, 8, 25, 23, 0, 0, 0, time.UTC), Persons: 137,
			Who:    "everyone still aboard, in the night of 25 to 26 August",
			Flag:   "V/?",
			Source: "historical-data.md §3.1 (2018-08-25/26 night: 137, V/?; some outlets 138-140)",
		},
	}
}

// Nationality is one row of the nationality mix of a scenario: how many of its people
// hold it, the languages given to them, and where the count comes from.
type Nationality struct {
	Code      string   // ISO 3166-1 alpha-2
	Name      string   // in English
	Count     int      // persons of the scenario
	Languages []string // ISO 639 codes (639-1 where one exists)
	Flag      string   // V, ? or A, as for Landing
	Source    string
}

// NationalityMix returns the nationalities of the 190 people of the Diciotti scenario,
// most numerous first; the counts add up to Rescued.
//
// The spec says only "Mostly Eritreans" (historical-data.md §3.1, the note after the
// timeline). A stored press report gives the ship's own breakdown of 143 of the people
// counted after the landings (Interior Ministry figures relayed by
// lasicilia.it/news/catania/186458): 125 Eritreans, 9 from the Comoros, 8 from
// Bangladesh and 1 Egyptian (V). The other 47 people (190 − 143) are not broken down
// anywhere found: they are assumed (A) to be Eritreans but for 2 Syrians and 1 Somali
// (nationalities the Interior Ministry named among those aboard, with no count:
// rm-fm.net/ar/27226, progettoitalianews.net "un somalo") and 2 Egyptians, so that the
// four suspected smugglers can be, as reported, 3 Egyptians and 1 Bangladeshi
// (fr.news-front.su, flagged ? in §3.1; it disagrees with the single Egyptian of the
// 143). The spec's table of the top nationalities landed in Italy in 2018 (§6.2:
// Tunisia, Eritrea, Iraq, Sudan, ...) is not used: this ship's own figures differ from
// the year's, and it would put Tunisians first where the sources report none.
func NationalityMix() []Nationality {
	return []Nationality{
		{Code: "ER", Name: "Eritrea", Count: 167, Languages: []string{"ti", "ar"}, Flag: "V+A",
			Source: "125 of the 143 in lasicilia.it/news/catania/186458 (V); 42 of the other 47 assumed (A), historical-data.md §3.1 \"Mostly Eritreans\""},
		{Code: "KM", Name: "Comoros", Count: 9, Languages: []string{"zdj", "fr", "ar"}, Flag: "V",
			Source: "9 of the 143 in lasicilia.it/news/catania/186458"},
		{Code: "BD", Name: "Bangladesh", Count: 8, Languages: []string{"bn"}, Flag: "V",
			Source: "8 of the 143 in lasicilia.it/news/catania/186458; one of the four suspected smugglers (fr.news-front.su, ?)"},
		{Code: "EG", Name: "Egypt", Count: 3, Languages: []string{"ar"}, Flag: "?",
			Source: "1 of the 143 in lasicilia.it/news/catania/186458 (V); 3 of the four suspected smugglers per fr.news-front.su (historical-data.md §3.1, ?): 2 more assumed (A)"},
		{Code: "SY", Name: "Syria", Count: 2, Languages: []string{"ar"}, Flag: "A",
			Source: "named among those aboard by the Interior Ministry (rm-fm.net/ar/27226; progettoitalianews.net), no count: 2 assumed"},
		{Code: "SO", Name: "Somalia", Count: 1, Languages: []string{"so", "ar"}, Flag: "?",
			Source: "\"un somalo\" among those still aboard on 25 August (progettoitalianews.net); not in the 143 of lasicilia.it"},
	}
}

// Diciotti returns the four arrival lists of the Diciotti scenario (Landings, in
// order), with 190 generated people: the same seed gives the same lists.
//
// Who is who, where the sources are silent, is assumed (A) and plausible: mostly young
// adult men; the 27 unaccompanied minors aged 14–17, one a girl; Lampedusa 4 women and
// 9 men, all medical cases; at Catania on the 25th 7 women and 6 men (the 3 people
// hospitalised assumed men), all medical cases, one couple among them; among the 137,
// five small families (three couples, a couple with a child, a mother with a child:
// the 5 women who stayed aboard with their families and the 2 minors found at the
// landing, lasicilia.it/news/catania/186458) and 126 single men, 4 of them the
// suspected smugglers (SecurityFlag). A few have relatives in other Member States, an
// expired visa or residence document, a diploma or a prior stay, so that the
// responsibility criteria reach different outcomes; some state preferences (Ireland
// most often: it took 16).
func Diciotti(seed int64) []arrival.List {
	g := newGen(seed)
	// Taken out of the pool before any dealing: the nationalities of the four suspected
	// smugglers as reported, all among the last 137.
	smugglers := []string{g.take("EG"), g.take("EG"), g.take("EG"), g.take("BD")}

	ls := Landings()
	lists := make([]arrival.List, len(ls))
	groups := [][]arrival.Person{
		g.lampedusa(ls[0].At),
		g.minors(ls[1].At),
		g.medical(ls[2].At),
		g.remaining(ls[3].At, smugglers),
	}
	n := 0
	for i, l := range ls {
		ps := groups[i]
		if len(ps) != l.Persons {
			panic(fmt.Sprintf("scenario: landing %s: %d persons generated, %d in the table", l.ID, len(ps), l.Persons))
		}
		families := map[solidarity.FamilyID]bool{}
		minors := 0
		for j := range ps {
			n++
			ps[j].Ref = fmt.Sprintf("DIC-%03d", n)
			if ps[j].Family == "" {
				// A person alone is a family of one, as the list parsers make it.
				ps[j].Family = solidarity.FamilyID("F-" + ps[j].Ref)
			}
			families[ps[j].Family] = true
			if ps[j].UnaccompaniedMinor {
				minors++
			}
		}
		lists[i] = arrival.List{
			Arrival: solidarity.Arrival{
				ID: l.ID, Vessel: Vessel, Port: l.Port, At: l.At, SAR: true, Benefitting: benefitting,
				Persons: len(ps), Families: len(families), Minors: minors,
			},
			Persons: ps,
		}
	}
	if n != Rescued || len(g.pool) != 0 {
		panic(fmt.Sprintf("scenario: %d persons generated, %d nationalities left undealt", n, len(g.pool)))
	}
	return lists
}

// gen deals the nationalities of NationalityMix and makes up people.
type gen struct {
	r     *rand.Rand
	pool  []string // nationalities not yet given, shuffled
	langs map[string][]string
	names map[string]bool
	fam   int
}

func newGen(seed int64) *gen {
	g := &gen{
		r:     rand.New(rand.NewPCG(uint64(seed), 0x44494349_4f545449)), // "DICIOTTI"
		langs: map[string][]string{},
		names: map[string]bool{},
	}
	for _, n := range NationalityMix() {
		for range n.Count {
			g.pool = append(g.pool, n.Code)
		}
		g.langs[n.Code] = n.Languages
	}
	g.r.Shuffle(len(g.pool), func(i, j int) { g.pool[i], g.pool[j] = g.pool[j], g.pool[i] })
	return g
}

// take removes one code from the pool and returns it.
func (g *gen) take(code string) string {
	i := slices.Index(g.pool, code)
	if i < 0 {
		panic("scenario: no " + code + " left in the nationality pool")
	}
	g.pool = slices.Delete(g.pool, i, i+1)
	return code
}

// deal removes the next code from the pool and returns it.
func (g *gen) deal() string {
	c := g.pool[len(g.pool)-1]
	g.pool = g.pool[:len(g.pool)-1]
	return c
}

// Synthetic names: two or three syllables from a fixed list, for the given name and
// for the family name. The letters q, w, x and z make them look made up on purpose.
var syllables = []string{"ba", "do", "fe", "gu", "ki", "lo", "ma", "ne", "pi", "ro",
	"sa", "tu", "ve", "wi", "xa", "yo", "zu", "qe", "jo", "hi"}

func (g *gen) word() string {
	n := 2 + g.r.IntN(2)
	w := ""
	for range n {
		w += syllables[g.r.IntN(len(syllables))]
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// name returns a full name not given before in this scenario, with surname as family
// name or a new one when surname is "".
func (g *gen) name(surname string) (full, family string) {
	for {
		family = surname
		if family == "" {
			family = g.word()
		}
		full = g.word() + " " + family
		if !g.names[full] {
			g.names[full] = true
			return full, family
		}
	}
}

// civilDate is the calendar date of t in UTC, at midnight.
func civilDate(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// born returns a birth date at which the person is age years old on the day of at.
func (g *gen) born(at time.Time, age int) time.Time {
	return civilDate(at).AddDate(-age, 0, -g.r.IntN(361))
}

// adultAge is a young adult's age: 18 and over, 24 on average, rarely over 40.
func (g *gen) adultAge() int { return min(18+int(g.r.ExpFloat64()*6), 58) }

// person makes a person of nationality nat, aged age on the day of at. One in
// assessEvery has no known birth date but an assessed age (0: all have a birth date).
func (g *gen) person(at time.Time, nat string, sex arrival.Sex, age int, surname string, assessEvery int) (arrival.Person, string) {
	name, family := g.name(surname)
	p := arrival.Person{
		Name:        name,
		Sex:         sex,
		Nationality: nat,
		Languages:   slices.Clone(g.langs[nat]),
	}
	if assessEvery > 0 && g.r.IntN(assessEvery) == 0 {
		p.AssessedAge = age
	} else {
		p.BirthDate = g.born(at, age)
	}
	return p, family
}

func (g *gen) familyID() solidarity.FamilyID {
	g.fam++
	return solidarity.FamilyID(fmt.Sprintf("FAM-DIC-%02d", g.fam))
}

// member describes one member of a family to be made.
type member struct {
	sex      arrival.Sex
	min, max int // age range
}

// family makes a family of Eritreans sharing a family name and a FamilyID.
func (g *gen) family(at time.Time, ms ...member) []arrival.Person {
	id := g.familyID()
	out := make([]arrival.Person, len(ms))
	surname := ""
	for i, m := range ms {
		out[i], surname = g.person(at, g.take("ER"), m.sex, m.min+g.r.IntN(m.max-m.min+1), surname, 0)
		out[i].Family = id
	}
	return out
}

func (g *gen) shuffled(sexes []arrival.Sex) []arrival.Sex {
	g.r.Shuffle(len(sexes), func(i, j int) { sexes[i], sexes[j] = sexes[j], sexes[i] })
	return sexes
}

func repeat(s arrival.Sex, n int) []arrival.Sex { return slices.Repeat([]arrival.Sex{s}, n) }

// lampedusa makes the 13 medical evacuations: 4 women and 9 men (A).
func (g *gen) lampedusa(at time.Time) []arrival.Person {
	var out []arrival.Person
	for _, sex := range g.shuffled(slices.Concat(repeat(arrival.Female, 4), repeat(arrival.Male, 9))) {
		p, _ := g.person(at, g.deal(), sex, g.adultAge(), "", 20)
		p.Medical = true
		out = append(out, p)
	}
	return out
}

// minors makes the 27 unaccompanied minors, 14 to 17, one a girl; a third of them
// have an assessed age only. Three have relatives in another Member State.
func (g *gen) minors(at time.Time) []arrival.Person {
	ages := []int{14, 15, 15, 16, 16, 16, 17, 17, 17, 17}
	var out []arrival.Person
	for _, sex := range g.shuffled(slices.Concat(repeat(arrival.Female, 1), repeat(arrival.Male, 26))) {
		p, _ := g.person(at, g.deal(), sex, ages[g.r.IntN(len(ages))], "", 3)
		p.UnaccompaniedMinor = true
		out = append(out, p)
	}
	links := []struct {
		rel  rules.FamilyMember
		pref solidarity.MemberState
	}{
		{rules.FamilyMember{Relation: rules.Sibling, State: "SE", Status: rules.StatusBeneficiary,
			LinkInCountryOfOrigin: true, LinkBeforeArrival: true, Source: "declared at registration; Eurodac hit in SE"}, "SE"},
		{rules.FamilyMember{Relation: rules.Parent, State: "NL", Status: rules.StatusLegallyPresent,
			LinkInCountryOfOrigin: true, LinkBeforeArrival: true, Source: "declared at registration; residence permit seen"}, "NL"},
		{rules.FamilyMember{Relation: rules.Relative, State: "DE", Status: rules.StatusBeneficiary,
			LinkInCountryOfOrigin: true, LinkBeforeArrival: true, CanTakeCare: true, Source: "declared at registration; individual examination"}, "DE"},
	}
	for k, i := range g.r.Perm(len(out))[:len(links)] {
		out[i].Relatives = []rules.FamilyMember{links[k].rel}
		out[i].Preferences = []solidarity.MemberState{links[k].pref}
	}
	return out
}

// medical makes the 13 medical disembarkations at Catania: 7 women and 3 men taken to
// Messina (V), 3 people hospitalised (assumed men, A); a couple among the first ten.
func (g *gen) medical(at time.Time) []arrival.Person {
	out := g.family(at, member{arrival.Female, 20, 32}, member{arrival.Male, 24, 38})
	for _, sex := range g.shuffled(slices.Concat(repeat(arrival.Female, 6), repeat(arrival.Male, 2))) {
		p, _ := g.person(at, g.deal(), sex, g.adultAge(), "", 20)
		out = append(out, p)
	}
	for i := range out {
		out[i].Medical = true
		if out[i].Sex == arrival.Female {
			out[i].OtherVulnerability = "survivor of violence (medical report)"
		}
	}
	for range 3 {
		p, _ := g.person(at, g.deal(), arrival.Male, g.adultAge(), "", 20)
		p.Medical = true
		p.OtherVulnerability = "hospitalised on landing"
		out = append(out, p)
	}
	g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// date is a civil date.
func date(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }

// remaining makes the last 137: five families (11 people) and 126 single men, four of
// them the suspected smugglers (of the nationalities given), and a few with links to
// other Member States. People come off family by family, in an order of the seed.
func (g *gen) remaining(at time.Time, smugglers []string) []arrival.Person {
	var units [][]arrival.Person
	couple := func() []member { return []member{{arrival.Male, 24, 38}, {arrival.Female, 20, 32}} }
	units = append(units,
		g.family(at, couple()...),
		g.family(at, couple()...),
		g.family(at, couple()...),
		g.family(at, append(couple(), member{arrival.Male, 2, 9})...),
		g.family(at, member{arrival.Female, 26, 38}, member{arrival.Female, 3, 10}),
	)
	var singles [][]arrival.Person
	for _, nat := range smugglers {
		p, _ := g.person(at, nat, arrival.Male, 20+g.r.IntN(16), "", 0)
		p.SecurityFlag = true
		singles = append(singles, []arrival.Person{p})
	}
	flagged := len(singles)
	for len(singles) < 126 {
		p, _ := g.person(at, g.deal(), arrival.Male, g.adultAge(), "", 20)
		singles = append(singles, []arrival.Person{p})
	}

	// Links to other Member States, on single men who are not flagged.
	others := singles[flagged:]
	links := []func(p *arrival.Person){
		func(p *arrival.Person) { // Art. 27: spouse whose application is pending in DE
			p.Relatives = []rules.FamilyMember{{Relation: rules.Spouse, State: "DE", Status: rules.StatusApplicant,
				LinkInCountryOfOrigin: true, LinkBeforeArrival: true, ConsentInWriting: true, Source: "declared at registration; Eurodac hit in DE"}}
			p.Preferences = []solidarity.MemberState{"DE"}
		},
		func(p *arrival.Person) { // Art. 26: spouse, a beneficiary in SE, married on the way (AMMR Art. 2(8))
			p.Relatives = []rules.FamilyMember{{Relation: rules.Spouse, State: "SE", Status: rules.StatusBeneficiary,
				LinkBeforeArrival: true, ConsentInWriting: true, Source: "marriage certificate issued in Sudan"}}
			p.Preferences = []solidarity.MemberState{"SE"}
		},
		func(p *arrival.Person) { // an adult's brother: no criterion, a meaningful link for relocation
			p.Relatives = []rules.FamilyMember{{Relation: rules.Sibling, State: "SE", Status: rules.StatusBeneficiary,
				LinkInCountryOfOrigin: true, LinkBeforeArrival: true, Source: "declared at registration"}}
			p.Preferences = []solidarity.MemberState{"SE", "DE"}
		},
		func(p *arrival.Person) { // an adult's parent: no criterion either
			p.Relatives = []rules.FamilyMember{{Relation: rules.Parent, State: "NL", Status: rules.StatusLegallyPresent,
				LinkInCountryOfOrigin: true, LinkBeforeArrival: true, Source: "declared at registration"}}
			p.Preferences = []solidarity.MemberState{"NL"}
		},
		func(p *arrival.Person) { // Art. 29(4): a visa that expired less than 18 months before
			p.Documents = []rules.Document{{Kind: rules.ShortStayVisa, Issuer: "FR", ValidFrom: date(2025, 10, 1), ValidTo: date(2025, 10, 30), Source: "VIS hit"}}
		},
		func(p *arrival.Person) { // Art. 29(4): a residence document that expired less than 3 years before
			p.Documents = []rules.Document{{Kind: rules.ResidenceDocument, Issuer: "MT", ValidFrom: date(2021, 4, 1), ValidTo: date(2024, 3, 31), Source: "expired residence permit shown"}}
			p.PriorStays = []rules.Stay{{State: "MT", From: date(2021, 4, 1), To: date(2024, 4, 20)}}
		},
		func(p *arrival.Person) { // Art. 30: a diploma issued less than 6 years before
			p.Diplomas = []rules.Diploma{{Issuer: "DE", Issued: date(2023, 7, 14), StudyMonths: 24, Source: "diploma shown at registration"}}
			p.Preferences = []solidarity.MemberState{"DE"}
		},
		func(p *arrival.Person) { // a diploma too old for Art. 30 (6 years or more)
			p.Diplomas = []rules.Diploma{{Issuer: "FR", Issued: date(2016, 6, 30), StudyMonths: 36, Source: "diploma shown at registration"}}
			p.Preferences = []solidarity.MemberState{"FR"}
		},
		func(p *arrival.Person) { // a long-stay visa that lapsed long ago: no criterion
			p.Documents = []rules.Document{{Kind: rules.LongStayVisa, Issuer: "IT", ValidFrom: date(2019, 1, 10), ValidTo: date(2019, 12, 31), Source: "VIS hit"}}
		},
	}
	for k, i := range g.r.Perm(len(others))[:len(links)] {
		p := &others[i][0]
		links[k](p)
		p.Languages = append(p.Languages, "en")
	}

	// Preferences, per family or single man without one, the flagged left out.
	units = append(units, singles...)
	g.r.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	quota := []struct {
		pref []solidarity.MemberState
		n    int
	}{{[]solidarity.MemberState{"IE"}, 16}, {[]solidarity.MemberState{"DE"}, 8}, {[]solidarity.MemberState{"SE", "DE"}, 4},
		{[]solidarity.MemberState{"NL"}, 3}, {[]solidarity.MemberState{"FR"}, 2}, {[]solidarity.MemberState{"IE", "FR"}, 2}}
	q := 0
	for _, u := range units {
		if q == len(quota) {
			break
		}
		if u[0].Preferences != nil || u[0].SecurityFlag {
			continue
		}
		for i := range u {
			u[i].Preferences = slices.Clone(quota[q].pref)
		}
		if quota[q].n--; quota[q].n == 0 {
			q++
		}
	}
	return slices.Concat(units...)
}
