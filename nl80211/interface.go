package nl80211

import (
	"fmt"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/netlink"
)

// NewMonitor creates a monitor interface called name on wiphy phy with MAC
// address addr (the address an active monitor ACKs) and the given flags. The
// interface is owned by c: the kernel deletes it when c is closed. It is
// created down; bring it up before use.
func (c *Conn) NewMonitor(phy int, name string, addr [6]byte, flags MonitorFlags) (Interface, error) {
	return c.newInterface(phy, name, IfTypeMonitor, addr, func(ae *netlink.AttributeEncoder) {
		ae.Nested(attrMntrFlags, func(nae *netlink.AttributeEncoder) error {
			encodeMonitorFlags(nae, flags)
			return nil
		})
	})
}

// NewStation creates a managed (station) interface called name on wiphy phy
// with MAC address addr, owned by c like NewMonitor's. Up and never
// connected, it is a driver vif that the hardware ACKs for without being on
// mac80211's monitor list. It is created down.
func (c *Conn) NewStation(phy int, name string, addr [6]byte) (Interface, error) {
	return c.newInterface(phy, name, IfTypeStation, addr, nil)
}

// newInterface sends NEW_INTERFACE for a socket-owned interface of type typ;
// more adds the type's own attributes.
func (c *Conn) newInterface(phy int, name string, typ IfType, addr [6]byte, more func(*netlink.AttributeEncoder)) (Interface, error) {
	op := "new interface " + name
	msgs, err := c.request(op, cmdNewInterface, 0, func(ae *netlink.AttributeEncoder) {
		ae.Uint32(attrWiphy, uint32(phy))
		ae.String(attrIfname, name)
		ae.Uint32(attrIftype, uint32(typ))
		ae.Bytes(attrMac, addr[:])
		if more != nil {
			more(ae)
		}
		ae.Flag(attrSocketOwner, true)
	})
	if err != nil {
		return Interface{}, err
	}
	ifs, err := decodeInterfaces(msgs)
	if err != nil {
		return Interface{}, wrap(op, err)
	}
	if len(ifs) != 1 {
		return Interface{}, &Error{Op: op, Err: fmt.Errorf("kernel sent %d interfaces in reply", len(ifs))}
	}
	return ifs[0], nil
}

func encodeMonitorFlags(ae *netlink.AttributeEncoder, flags MonitorFlags) {
	for f := 1; f <= maxMonitorFlag; f++ {
		if flags&(1<<f) != 0 {
			ae.Flag(uint16(f), true)
		}
	}
}

// DelInterface deletes the interface with index ifindex.
func (c *Conn) DelInterface(ifindex int) error {
	_, err := c.request(fmt.Sprintf("delete interface %d", ifindex), cmdDelInterface,
		netlink.Acknowledge, func(ae *netlink.AttributeEncoder) {
			ae.Uint32(attrIfindex, uint32(ifindex))
		})
	return err
}

// Interfaces lists the wireless interfaces of every wiphy with their
// administrative state.
func (c *Conn) Interfaces() ([]Interface, error) {
	msgs, err := c.request("get interfaces", cmdGetInterface, netlink.Dump, nil)
	if err != nil {
		return nil, err
	}
	ifs, err := decodeInterfaces(msgs)
	if err != nil {
		return nil, wrap("get interfaces", err)
	}
	for i := range ifs {
		if ifs[i].Up, err = c.isUp(ifs[i].Index); err != nil {
			return nil, wrap("get interfaces", err)
		}
	}
	return ifs, nil
}

// InterfacesOf lists the interfaces of wiphy phy.
func (c *Conn) InterfacesOf(phy int) ([]Interface, error) {
	all, err := c.Interfaces()
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, ifi := range all {
		if ifi.PHY == phy {
			out = append(out, ifi)
		}
	}
	return out, nil
}

func decodeInterfaces(msgs []genetlink.Message) ([]Interface, error) {
	ifs := make([]Interface, 0, len(msgs))
	for _, m := range msgs {
		ifi, err := decodeInterface(m.Data)
		if err != nil {
			return nil, err
		}
		ifs = append(ifs, ifi)
	}
	return ifs, nil
}

func decodeInterface(b []byte) (Interface, error) {
	var ifi Interface
	ad, err := netlink.NewAttributeDecoder(b)
	if err != nil {
		return ifi, err
	}
	for ad.Next() {
		switch ad.Type() {
		case attrIfindex:
			ifi.Index = int(ad.Uint32())
		case attrIfname:
			ifi.Name = ad.String()
		case attrWiphy:
			ifi.PHY = int(ad.Uint32())
		case attrIftype:
			ifi.Type = IfType(ad.Uint32())
		case attrMac:
			copy(ifi.Addr[:], ad.Bytes())
		case attrWiphyFreq:
			ifi.Freq = int(ad.Uint32())
		}
	}
	return ifi, ad.Err()
}
