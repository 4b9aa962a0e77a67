package ctl

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/airq/airq/internal/ieee80211"
)

// MAC is an address in the replies. It has its own type so that JSON and
// the text form print it as 02:00:00:00:01:00, not as six numbers.
type MAC ieee80211.MAC

func (m MAC) String() string { return ieee80211.MAC(m).String() }

// MarshalText prints the colon form.
func (m MAC) MarshalText() ([]byte, error) { return m.AppendText(nil) }

// AppendText appends the colon form without allocating.
func (m MAC) AppendText(b []byte) ([]byte, error) { return ieee80211.MAC(m).AppendText(b) }

// UnmarshalText accepts what ieee80211.ParseMAC accepts.
func (m *MAC) UnmarshalText(b []byte) error {
	v, err := ieee80211.ParseMAC(string(b))
	if err != nil {
		return fmt.Errorf("MAC %q: want six hex octets like 02:00:00:00:01:00", b)
	}
	*m = MAC(v)
	return nil
}

// AC is an access category in the replies, printed by name.
type AC ieee80211.AC

func (ac AC) String() string { return ieee80211.AC(ac).String() }

// MarshalText prints VO, VI, BE or BK.
func (ac AC) MarshalText() ([]byte, error) { return ac.AppendText(nil) }

// AppendText appends VO, VI, BE or BK.
func (ac AC) AppendText(b []byte) ([]byte, error) {
	if ac >= ieee80211.NumACs {
		return nil, fmt.Errorf("AC %d out of range", uint8(ac))
	}
	return append(b, ac.String()...), nil
}

// UnmarshalText accepts VO, VI, BE or BK.
func (ac *AC) UnmarshalText(b []byte) error {
	v, ok := ieee80211.ParseAC(string(b))
	if !ok {
		return fmt.Errorf("AC %q: want VO, VI, BE or BK", b)
	}
	*ac = AC(v)
	return nil
}

// PerAC holds one value per access category, indexed by ieee80211.AC (VO,
// VI, BE, BK). The text form is the four numbers separated by one space;
// JSON is an object keyed by AC name.
type PerAC [ieee80211.NumACs]int64

// MarshalText prints "VO VI BE BK" values.
func (p PerAC) MarshalText() ([]byte, error) { return p.AppendText(nil) }

// AppendText appends "VO VI BE BK" values.
func (p PerAC) AppendText(b []byte) ([]byte, error) {
	for i, v := range p {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	return b, nil
}

// UnmarshalText reads exactly four decimal numbers separated by one space.
func (p *PerAC) UnmarshalText(b []byte) error {
	f := strings.Split(string(b), " ")
	if len(f) != ieee80211.NumACs {
		return fmt.Errorf("per-AC value %q: want 4 numbers (VO VI BE BK)", b)
	}
	var out PerAC
	for i, s := range f {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("per-AC value %q: %q is not a number", b, s)
		}
		out[i] = v
	}
	*p = out
	return nil
}

// MarshalJSON prints {"VO":n,"VI":n,"BE":n,"BK":n}; it takes precedence
// over MarshalText, which would make a string.
func (p PerAC) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, v := range p {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, ieee80211.AC(i).String()...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, v, 10)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads the object MarshalJSON prints; absent ACs are 0.
func (p *PerAC) UnmarshalJSON(b []byte) error {
	var m map[string]int64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	var out PerAC
	for k, v := range m {
		ac, ok := ieee80211.ParseAC(k)
		if !ok {
			return fmt.Errorf("per-AC key %q: want VO, VI, BE or BK", k)
		}
		out[ac] = v
	}
	*p = out
	return nil
}
