package itemsize

// Decimal is a number in DynamoDB's canonical form: the value is
// 0.D × 10^exp, where D are the significant digits of its text in order
// (no leading or trailing zero); zero has no digits. The zero Decimal is
// the number 0.
type Decimal struct {
	s      string // the number's text
	neg    bool
	exp    int
	digits int // how many significant digits
	first  int // position in s of the first significant digit
}

// DynamoDB's numbers: 38 significant digits, magnitudes from 1E-130 to
// below 1E+126 (0.D × 10^exp with exp from -129 to 126).
const (
	maxDigits = 38
	minExp    = -129
	maxExp    = 126
)

// ParseDecimal parses DynamoDB's number syntax: an optional sign, digits
// with an optional fraction, an optional exponent. It reports false for
// what DynamoDB refuses: bad syntax, more than 38 significant digits, a
// magnitude below 1E-130 or from 1E+126 up.
func ParseDecimal(s string) (Decimal, bool) {
	d, why := parseDecimal(s)
	return d, why == ""
}

// Why a number is refused, in the words of [InvalidError].
const (
	whySyntax    = "not a number"
	whyDigits    = "more than 38 significant digits"
	whyTooLarge  = "magnitude of 1E+126 or more"
	whyTooSmall  = "magnitude below 1E-130"
	whyNotFinite = "NaN and infinities are not numbers DynamoDB stores"
)

// parseDecimal is ParseDecimal saying why a number is refused ("" when
// it is not).
func parseDecimal(s string) (Decimal, string) {
	d := Decimal{s: s, first: -1}
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		d.neg = s[i] == '-'
		i++
	}
	seen, dot := 0, false
	intDigits := 0   // significant-position digits before the point, from the first non-zero
	leadingFrac := 0 // zeros after the point before the first non-zero digit
	lastNonZero := -1
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seen++
			if d.first < 0 && c == '0' {
				if dot {
					leadingFrac++
				}
				continue
			}
			if d.first < 0 {
				d.first = i
			}
			if !dot {
				intDigits++
			}
			if c != '0' {
				lastNonZero = i
			}
		case c == '.' && !dot:
			dot = true
		case c == 'e' || c == 'E':
			e, ok := parseExponent(s[i+1:])
			if !ok || seen == 0 {
				return d, whySyntax
			}
			d.exp = e
			i = len(s)
		default:
			return d, syntaxWhy(s)
		}
	}
	if seen == 0 {
		return d, syntaxWhy(s)
	}
	if d.first < 0 || lastNonZero < 0 {
		return Decimal{s: s, first: -1}, "" // zero, whatever its sign
	}
	for j := d.first; j <= lastNonZero; j++ {
		if s[j] != '.' {
			d.digits++
		}
	}
	if intDigits > 0 {
		d.exp += intDigits
	} else {
		d.exp -= leadingFrac
	}
	switch {
	case d.digits > maxDigits:
		return d, whyDigits
	case d.exp > maxExp:
		return d, whyTooLarge
	case d.exp < minExp:
		return d, whyTooSmall
	}
	return d, ""
}

// syntaxWhy names NaN and the infinities, which Go prints for floats that
// are not numbers.
func syntaxWhy(s string) string {
	switch s {
	case "NaN", "+Inf", "-Inf", "Inf":
		return whyNotFinite
	}
	return whySyntax
}

// parseExponent parses the digits after 'e', with an optional sign.
func parseExponent(s string) (int, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || len(s) > 6 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// Size is the stored size: an exponent byte, one byte per base-100 digit
// (pairs aligned so that 10^exp starts a pair), one terminator byte when
// negative. 1 and 12 cost 2, 1.5 and 123 cost 3, 0 costs 1, -1 costs 3.
func (d Decimal) Size() int {
	if d.digits == 0 {
		return 1
	}
	n := d.digits
	if d.exp%2 != 0 {
		n++ // the first digit pairs with a leading zero
	}
	size := 1 + (n+1)/2
	if d.neg {
		size++
	}
	return size
}

// Canonical returns the number as DynamoDB stores and returns it, checked
// value by value against DynamoDB Local: plain decimal notation without
// exponent, sign "+", leading zeros or trailing fractional zeros; "-" only
// before a non-zero number ("-0" is "0"). "1.50e2" is "150", "1e-5" is
// "0.00001". Equal numbers have equal texts. A text already canonical is
// returned as it is, without allocating.
func (d Decimal) Canonical() string {
	if d.digits == 0 {
		return "0"
	}
	var buf [48]byte
	b := d.appendCanonical(buf[:0])
	if string(b) == d.s {
		return d.s
	}
	return string(b)
}

// NumberKey is a text that equal numbers share: the canonical text of a
// valid number, and for any other text the text behind "?" (which no
// canonical text starts with). It serves to compare numbers through maps
// and sets.
func NumberKey(s string) string {
	d, ok := ParseDecimal(s)
	if !ok {
		return "?" + s
	}
	return d.Canonical()
}

// appendCanonical appends the canonical text of a non-zero d.
func (d Decimal) appendCanonical(b []byte) []byte {
	if d.neg {
		b = append(b, '-')
	}
	if d.exp <= 0 {
		b = append(b, "0."...)
		b = appendZeros(b, -d.exp)
	}
	for i, k := d.first, 0; k < d.digits; i++ {
		if d.s[i] == '.' {
			continue
		}
		if k == d.exp && k > 0 {
			b = append(b, '.')
		}
		b = append(b, d.s[i])
		k++
	}
	return appendZeros(b, d.exp-d.digits)
}

// appendZeros appends n zeros (none when n <= 0).
func appendZeros(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, '0')
	}
	return b
}

// Equal reports whether d and o are the same number.
func (d Decimal) Equal(o Decimal) bool {
	if d.digits != o.digits || d.exp != o.exp || d.digits > 0 && d.neg != o.neg {
		return false
	}
	i, j := d.first, o.first
	for k := 0; k < d.digits; k++ {
		if d.s[i] == '.' {
			i++
		}
		if o.s[j] == '.' {
			j++
		}
		if d.s[i] != o.s[j] {
			return false
		}
		i++
		j++
	}
	return true
}

// IntegerSize is [Decimal.Size] of s, an integer as strconv formats one
// (an optional "-", then decimal digits without a leading zero), computed
// from its digits without parsing it. Such a number is always one that
// DynamoDB takes: 20 digits at most.
func IntegerSize(s string) int {
	neg := s != "" && s[0] == '-'
	if neg {
		s = s[1:]
	}
	digits := len(s)
	for digits > 0 && s[digits-1] == '0' {
		digits--
	}
	if digits == 0 {
		return 1 // zero
	}
	if len(s)%2 != 0 {
		digits++ // the first digit pairs with a leading zero
	}
	size := 1 + (digits+1)/2
	if neg {
		size++
	}
	return size
}
