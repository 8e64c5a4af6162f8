// Package scenario builds replays of historical disembarkations as arrival lists, so
// that the case flow, the responsibility rules and the matching can be run on a
// realistic ship: the counts, dates and nationalities follow the public record as
// compiled in the project spec (historical-data.md §3), moved to a year in which today's
// rules apply. The people are generated: names, birth dates, families and links are
// synthetic and deterministic from a seed; nothing comes from a real person.
//
// Every count carries the confidence flag of the spec (V read in a source, D derived
// by arithmetic, ? sources disagree) or A: an assumption made here, stated where it is
// made.
package scenario
