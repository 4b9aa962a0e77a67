package pmf

import (
	"errors"

	"github.com/airq/airq/internal/ieee80211"
)

// SA Query Action field values (802.11-2020 9.6.9).
const (
	ActionRequest  = 0
	ActionResponse = 1

	// TransactionIDLen is the length of an SA Query transaction ID.
	TransactionIDLen = 2
	// SAQueryLen is the SA Query part of an Action frame body: category,
	// action, transaction ID. Elements (an OCI with OCV) may follow.
	SAQueryLen = 2 + TransactionIDLen
)

// TransactionID pairs an SA Query Response with its Request.
type TransactionID [TransactionIDLen]byte

// SAQuery is a decoded SA Query Request or Response.
type SAQuery struct {
	Action uint8
	ID     TransactionID
	// Elements are what follows the transaction ID (an OCI element when
	// OCV is on, which airq does not negotiate), a slice of the frame.
	Elements []byte
}

// Errors of ParseSAQuery.
var (
	ErrShort    = errors.New("pmf: SA Query frame too short")
	ErrCategory = errors.New("pmf: not an SA Query Action frame")
	ErrAction   = errors.New("pmf: SA Query action neither Request nor Response")
)

// ParseSAQuery decodes the body of an SA Query Action frame, from the
// category octet on (ieee80211.Frame.Body of the frame, once decrypted).
// It checks what hostapd's ieee802_11_sa_query_action does: the length,
// the category and an action of 0 or 1.
func ParseSAQuery(body []byte) (SAQuery, error) {
	var q SAQuery
	if len(body) < SAQueryLen {
		return q, ErrShort
	}
	if body[0] != ieee80211.CategorySAQuery {
		return q, ErrCategory
	}
	if body[1] != ActionRequest && body[1] != ActionResponse {
		return q, ErrAction
	}
	q.Action, q.ID, q.Elements = body[1], TransactionID(body[2:4]), body[SAQueryLen:]
	return q, nil
}

// AppendSAQuery appends the body of an SA Query Request or Response
// (category, action, transaction ID) after a management header in dst.
// The frame is a robust Action frame: seal it under the station's PTK
// (ccmp.Key.SealMgmt) before sending. The AP answers a station's Request
// with a Response carrying the Request's ID, as hostapd does for an
// associated station and an individually addressed Request.
func AppendSAQuery(dst []byte, action uint8, id TransactionID) []byte {
	return append(dst, ieee80211.CategorySAQuery, action, id[0], id[1])
}
