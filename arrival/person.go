// Package arrival is the people of a disembarkation as the case flow knows them: the
// personal record of each person (Person), their families, and the lists of a whole
// ship read from CSV or JSON (ParseList). A Person is personal data: it is sealed at
// rest, shown only to the roles that need it, and never printed or logged (String,
// GoString and LogValue name the case only).
package arrival

import (
	"fmt"
	"log/slog"
	"time"

	"solidarity"
	"solidarity/rules"
)

// Sex as recorded at registration.
type Sex string

const (
	Female  Sex = "F"
	Male    Sex = "M"
	OtherSx Sex = "X" // other or not stated
)

// Person is the personal record of one person of an arrival: what the rules need (AMMR
// Part III, the procedure track) and what relocation needs (meaningful links, Art.
// 67(6)–(10); stated preferences). Dates are civil dates (midnight UTC).
type Person struct {
	// Case is the pseudonymous case ID given at registration.
	Case solidarity.CaseID `json:"case,omitempty"`
	// Ref is the person's reference within the list (a row number, a wristband
	// number): family links in an import point at it. It is personal data: it can
	// identify the person to whoever holds the list.
	Ref    string              `json:"ref"`
	Family solidarity.FamilyID `json:"family,omitempty"`

	Name string `json:"name"`
	// BirthDate is the date of birth, or zero when unknown; then AssessedAge (whole
	// years, found by an age assessment on the arrival date) may be set.
	BirthDate   time.Time `json:"birth_date,omitzero"`
	AssessedAge int       `json:"assessed_age,omitempty"`
	Sex         Sex       `json:"sex"`
	// Nationality is an ISO 3166-1 alpha-2 code, or "" when stateless or unknown.
	Nationality string   `json:"nationality,omitempty"`
	Languages   []string `json:"languages,omitempty"` // ISO 639 codes, e.g. "ti", "ar"

	// Relatives are family members and relatives outside this arrival: where they
	// are and their status (Arts. 25–28, 34 AMMR). Members of the same arrival are
	// linked by Family instead.
	Relatives  []rules.FamilyMember `json:"relatives,omitempty"`
	Documents  []rules.Document     `json:"documents,omitempty"` // residence documents, visas (Art. 29)
	Diplomas   []rules.Diploma      `json:"diplomas,omitempty"`  // Art. 30
	PriorStays []rules.Stay         `json:"prior_stays,omitempty"`

	UnaccompaniedMinor bool   `json:"unaccompanied_minor,omitempty"`
	Medical            bool   `json:"medical,omitempty"`
	OtherVulnerability string `json:"other_vulnerability,omitempty"`
	// SecurityFlag: the security check gave reasonable grounds to consider the person
	// a threat to internal security (Art. 15 SR; Art. 16(4) AMMR; excluded from
	// relocation, Art. 67(2)).
	SecurityFlag bool `json:"security_flag,omitempty"`
	// Preferences are Member States the person asked to go to, most wanted first.
	Preferences []solidarity.MemberState `json:"preferences,omitempty"`

	// Notes are what officers wrote when recording events on the case: kept here,
	// sealed and erased with the record, because free text can say anything about
	// the person. Lists never carry notes.
	Notes []Note `json:"notes,omitempty"`
}

// Note is an officer's note on an event.
type Note struct {
	At    time.Time `json:"at"`
	Event string    `json:"event"`
	Actor string    `json:"actor"`
	Text  string    `json:"text"`
}

// String names the case only: a Person never prints.
func (p Person) String() string { return fmt.Sprintf("person{case %s}", p.Case) }

// GoString is String, so %#v does not print the record either.
func (p Person) GoString() string { return p.String() }

// LogValue implements slog.LogValuer: logs get the case ID only.
func (p Person) LogValue() slog.Value { return slog.StringValue(string(p.Case)) }

// Format prints String for every verb, so no verb of fmt reveals a field.
func (p Person) Format(f fmt.State, _ rune) { fmt.Fprint(f, p.String()) }

// Minor reports whether the person is under 18 on date at: by the date of birth, or
// by the assessed age (the benefit of the doubt). Someone born on 29 February turns
// 18 on 28 February in a common year, as the rules count age (rules.Applicant).
func (p *Person) Minor(at time.Time) bool {
	if !p.BirthDate.IsZero() {
		b := p.BirthDate.UTC()
		y := b.Year() + 18
		d := b.Day()
		if last := time.Date(y, b.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day(); d > last {
			d = last
		}
		return time.Date(y, b.Month(), d, 0, 0, 0, 0, time.UTC).After(at)
	}
	return p.AssessedAge > 0 && p.AssessedAge < 18
}

// List is a ship's list: the arrival and its people, as imported.
type List struct {
	Arrival solidarity.Arrival `json:"arrival"`
	Persons []Person           `json:"persons"`
}
