package nl80211test

import (
	"sync"

	"github.com/airq/airq/nl80211"
	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/genetlink/genltest"
	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"
)

// nl80211's numbers (include/uapi/linux/nl80211.h).
const (
	cmdNewInterface = 7
	cmdDelInterface = 8
	attrWiphy       = 1
	attrIfindex     = 3
	attrIfname      = 4
	attrIftype      = 5
	attrMac         = 6
	attrMntrFlags   = 0x17
	mntrFlagActive  = 6 // NL80211_MNTR_FLAG_ACTIVE
)

// Request is one NEW_INTERFACE the fake kernel received.
type Request struct {
	nl80211.Interface      // as asked (Index 0)
	Active            bool // a monitor with NL80211_MNTR_FLAG_ACTIVE
}

// Kernel answers the interface commands. Refuse, if set, is asked about
// each NEW_INTERFACE and answers with the errno the driver would return
// (0 accepts): mt76x02 refuses a taken address slot with EBUSY.
type Kernel struct {
	Refuse func(r Request) unix.Errno

	mu      sync.Mutex
	next    int
	created []Request
	deleted []int
}

// Dial returns a Conn whose requests the kernel k answers; it fails where
// k does not know the command (EOPNOTSUPP).
func Dial(k *Kernel) (*nl80211.Conn, error) {
	fam := genetlink.Family{ID: 0x23, Version: 1, Name: "nl80211"}
	return nl80211.NewConn(genltest.Dial(genltest.ServeFamily(fam, k.serve)))
}

// Created returns the interfaces the kernel made, in order.
func (k *Kernel) Created() []Request {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]Request(nil), k.created...)
}

// Deleted returns the indexes DEL_INTERFACE named, in order.
func (k *Kernel) Deleted() []int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]int(nil), k.deleted...)
}

func (k *Kernel) serve(greq genetlink.Message, _ netlink.Message) ([]genetlink.Message, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	ad, err := netlink.NewAttributeDecoder(greq.Data)
	if err != nil {
		return nil, genltest.Error(int(unix.EINVAL))
	}
	var r Request
	for ad.Next() {
		switch ad.Type() {
		case attrWiphy:
			r.PHY = int(ad.Uint32())
		case attrIfindex:
			r.Index = int(ad.Uint32())
		case attrIfname:
			r.Name = ad.String()
		case attrIftype:
			r.Type = nl80211.IfType(ad.Uint32())
		case attrMac:
			copy(r.Addr[:], ad.Bytes())
		case attrMntrFlags:
			ad.Nested(func(nad *netlink.AttributeDecoder) error {
				for nad.Next() {
					r.Active = r.Active || nad.Type() == mntrFlagActive
				}
				return nil
			})
		}
	}
	if ad.Err() != nil {
		return nil, genltest.Error(int(unix.EINVAL))
	}
	switch greq.Header.Command {
	case cmdNewInterface:
		if k.Refuse != nil {
			if e := k.Refuse(r); e != 0 {
				return nil, genltest.Error(int(e))
			}
		}
		k.next++
		r.Index = 100 + k.next
		k.created = append(k.created, r)
		ae := netlink.NewAttributeEncoder()
		ae.Uint32(attrIfindex, uint32(r.Index))
		ae.String(attrIfname, r.Name)
		ae.Uint32(attrWiphy, uint32(r.PHY))
		ae.Uint32(attrIftype, uint32(r.Type))
		ae.Bytes(attrMac, r.Addr[:])
		b, err := ae.Encode()
		if err != nil {
			return nil, err
		}
		return []genetlink.Message{{Data: b}}, nil
	case cmdDelInterface:
		k.deleted = append(k.deleted, r.Index)
		return []genetlink.Message{{}}, nil // the acknowledgement
	}
	return nil, genltest.Error(int(unix.EOPNOTSUPP))
}
