package solidarity

import (
	"fmt"
	"math/big"
)

// Cents is an amount of money in euro cents. Money is never a float.
type Cents int64

// EUR returns whole euros as Cents.
func EUR(euros int64) Cents { return Cents(euros * 100) }

// Rat returns c in euros as an exact rational.
func (c Cents) Rat() *big.Rat { return big.NewRat(int64(c), 100) }

// String formats c as "EUR 1,234,567.89".
func (c Cents) String() string {
	neg := c < 0
	if neg {
		c = -c
	}
	s := fmt.Sprintf("%d", int64(c)/100)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	sign := ""
	if neg {
		sign = "-"
	}
	return fmt.Sprintf("%sEUR %s.%02d", sign, out, int64(c)%100)
}
