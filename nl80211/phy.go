package nl80211

import (
	"fmt"
	"os"
	"slices"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/netlink"
)

// PHYs lists every wiphy, sorted by index. It uses the split dump, in which
// one wiphy's data spans several messages; they are merged by wiphy index.
func (c *Conn) PHYs() ([]PHY, error) {
	msgs, err := c.request("get wiphys", cmdGetWiphy, netlink.Dump, func(ae *netlink.AttributeEncoder) {
		ae.Flag(attrSplitWiphyDump, true)
	})
	if err != nil {
		return nil, err
	}
	phys, err := decodePHYs(msgs)
	return phys, wrap("get wiphys", err)
}

// PHYByName returns the wiphy called name ("phy0"). The error matches
// os.ErrNotExist when there is none.
func (c *Conn) PHYByName(name string) (PHY, error) {
	phys, err := c.PHYs()
	if err != nil {
		return PHY{}, err
	}
	for _, p := range phys {
		if p.Name == name {
			return p, nil
		}
	}
	return PHY{}, &Error{Op: "get wiphy " + name, Err: os.ErrNotExist}
}

func decodePHYs(msgs []genetlink.Message) ([]PHY, error) {
	byIndex := make(map[int]*PHY)
	var order []int
	for _, m := range msgs {
		idx, err := wiphyIndex(m.Data)
		if err != nil {
			return nil, err
		}
		p, ok := byIndex[idx]
		if !ok {
			p = &PHY{Index: idx}
			byIndex[idx] = p
			order = append(order, idx)
		}
		if err := p.merge(m.Data); err != nil {
			return nil, fmt.Errorf("wiphy %d: %w", idx, err)
		}
	}
	slices.Sort(order)
	phys := make([]PHY, 0, len(order))
	for _, idx := range order {
		p := byIndex[idx]
		p.Monitor = slices.Contains(p.IfTypes, IfTypeMonitor)
		phys = append(phys, *p)
	}
	return phys, nil
}

func wiphyIndex(b []byte) (int, error) {
	ad, err := netlink.NewAttributeDecoder(b)
	if err != nil {
		return 0, err
	}
	for ad.Next() {
		if ad.Type() == attrWiphy {
			return int(ad.Uint32()), nil
		}
	}
	if err := ad.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("wiphy message without NL80211_ATTR_WIPHY")
}

// merge adds one message of a split dump to p, never overwriting what an
// earlier message supplied with an absent attribute.
func (p *PHY) merge(b []byte) error {
	ad, err := netlink.NewAttributeDecoder(b)
	if err != nil {
		return err
	}
	for ad.Next() {
		switch ad.Type() {
		case attrWiphyName:
			p.Name = ad.String()
		case attrMac:
			copy(p.PermAddr[:], ad.Bytes())
		case attrMacAddrs:
			ad.Nested(p.decodeAddrs)
		case attrWiphySelfManagedReg:
			p.SelfManagedReg = true
		case attrMacMask:
			copy(p.AddrMask[:], ad.Bytes())
		case attrFeatureFlags:
			p.FeatureFlags = ad.Uint32()
			p.ActiveMonitor = p.FeatureFlags&featureActiveMonitor != 0
		case attrExtFeatures:
			p.ExtFeatures = slices.Clone(ad.Bytes())
		case attrSupportedIftypes:
			ad.Nested(p.decodeIfTypes)
		case attrWiphyBands:
			ad.Nested(p.decodeBands)
		}
	}
	return ad.Err()
}

// decodeAddrs reads NL80211_ATTR_MAC_ADDRS: one 6-byte attribute per
// address, numbered from 1.
func (p *PHY) decodeAddrs(ad *netlink.AttributeDecoder) error {
	p.Addresses = p.Addresses[:0]
	for ad.Next() {
		if b := ad.Bytes(); len(b) == 6 {
			p.Addresses = append(p.Addresses, [6]byte(b))
		}
	}
	return nil
}

func (p *PHY) decodeIfTypes(ad *netlink.AttributeDecoder) error {
	for ad.Next() {
		t := IfType(ad.Type())
		if !slices.Contains(p.IfTypes, t) {
			p.IfTypes = append(p.IfTypes, t)
		}
	}
	return nil
}

func (p *PHY) decodeBands(ad *netlink.AttributeDecoder) error {
	for ad.Next() {
		b := p.band(int(ad.Type()))
		ad.Nested(b.decode)
	}
	return nil
}

// band returns the band with index idx, adding it if it is new.
func (p *PHY) band(idx int) *Band {
	for i := range p.Bands {
		if p.Bands[i].Index == idx {
			return &p.Bands[i]
		}
	}
	p.Bands = append(p.Bands, Band{Index: idx})
	return &p.Bands[len(p.Bands)-1]
}
