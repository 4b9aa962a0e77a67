package pmf

import (
	"encoding/binary"
	"errors"

	"github.com/airq/airq/internal/ieee80211"
)

// ElemTimeoutInterval is the Timeout Interval element (802.11-2020
// 9.4.2.49): a type and a 4-octet value.
const ElemTimeoutInterval = 56

// Timeout Interval types (Table 9-197).
const (
	TimeoutReassocDeadline = 1 // TUs
	TimeoutKeyLifetime     = 2 // seconds
	TimeoutAssocComeback   = 3 // TUs: when to try the association again
)

const timeoutIntervalBody = 5

// ErrTimeoutInterval is returned for a Timeout Interval element body that
// is not 5 octets.
var ErrTimeoutInterval = errors.New("pmf: Timeout Interval element is not 5 octets")

// TimeoutInterval is a decoded Timeout Interval element.
type TimeoutInterval struct {
	Type  uint8
	Value uint32
}

// ParseTimeoutInterval decodes the body of a Timeout Interval element
// (what ieee80211.Elements.Find returns).
func ParseTimeoutInterval(body []byte) (TimeoutInterval, error) {
	if len(body) != timeoutIntervalBody {
		return TimeoutInterval{}, ErrTimeoutInterval
	}
	return TimeoutInterval{Type: body[0], Value: binary.LittleEndian.Uint32(body[1:])}, nil
}

// Append appends t as an element, ID and length included.
func (t TimeoutInterval) Append(dst []byte) []byte {
	dst = append(dst, ElemTimeoutInterval, timeoutIntervalBody, t.Type)
	return binary.LittleEndian.AppendUint32(dst, t.Value)
}

// AppendComeback appends the association comeback time element of an
// association response refused with status 30
// (ieee80211.StatusAssocRejectedTemp), as hostapd's
// hostapd_eid_assoc_comeback_time writes it: type 3, tus TUs.
func AppendComeback(dst []byte, tus uint32) []byte {
	return TimeoutInterval{Type: TimeoutAssocComeback, Value: tus}.Append(dst)
}

// Comeback returns the association comeback time of an association
// response's elements, if it has one.
func Comeback(elems ieee80211.Elements) (tus uint32, ok bool) {
	b, found := elems.Find(ElemTimeoutInterval)
	if !found {
		return 0, false
	}
	t, err := ParseTimeoutInterval(b)
	if err != nil || t.Type != TimeoutAssocComeback {
		return 0, false
	}
	return t.Value, true
}
