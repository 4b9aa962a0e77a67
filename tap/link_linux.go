package tap

import (
	"encoding/binary"
	"fmt"
	"net"

	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"

	"github.com/airq/airq/internal/link"
)

// JoinBridge makes the TAP a port of the Linux bridge called bridge (like
// hostapd's bridge=), through rtnetlink: RTM_NEWLINK with IFLA_MASTER. The
// bridge must exist in the TAP's network namespace. Stations then reach the
// wired network through the bridge's forwarding.
func (d *Device) JoinBridge(bridge string) error {
	br, err := net.InterfaceByName(bridge)
	if err != nil {
		return fmt.Errorf("tap: %s: join bridge %s: %w", d.name, bridge, err)
	}
	if err := d.setLink(unix.IFLA_MASTER, uint32(br.Index)); err != nil {
		return fmt.Errorf("tap: %s: join bridge %s: %w", d.name, bridge, err)
	}
	return nil
}

// LeaveBridge detaches the TAP from its bridge, if any.
func (d *Device) LeaveBridge() error {
	if err := d.setLink(unix.IFLA_MASTER, 0); err != nil {
		return fmt.Errorf("tap: %s: leave bridge: %w", d.name, err)
	}
	return nil
}

// SetMTU sets the interface's MTU (the largest frame the host sends to airq,
// less the Ethernet header).
func (d *Device) SetMTU(mtu int) error {
	if d.closed.Load() {
		return ErrClosed
	}
	if err := link.SetMTU(d.name, mtu); err != nil {
		return fmt.Errorf("tap: %s: %w", d.name, err)
	}
	return nil
}

// SetCarrier sets the link's carrier (TUNSETCARRIER): down while the radio is
// not serving, so that the host's routing and a bridge's forwarding skip the
// TAP, up when it is.
func (d *Device) SetCarrier(up bool) error {
	var v int
	if up {
		v = 1
	}
	var serr error
	err := d.rc.Control(func(fd uintptr) {
		serr = unix.IoctlSetPointerInt(int(fd), unix.TUNSETCARRIER, v)
	})
	if err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("tap: %s: set carrier: %w", d.name, err)
	}
	return nil
}

// Master returns the interface index of the TAP's bridge, 0 when none.
func (d *Device) Master() (int, error) {
	l, err := d.link()
	return l.master, err
}

// setLink sends RTM_NEWLINK for the TAP with one u32 attribute.
func (d *Device) setLink(attr uint16, v uint32) error {
	if d.closed.Load() {
		return ErrClosed
	}
	ae := netlink.NewAttributeEncoder()
	ae.Uint32(attr, v)
	attrs, err := ae.Encode()
	if err != nil {
		return err
	}
	req := make([]byte, unix.SizeofIfInfomsg, unix.SizeofIfInfomsg+len(attrs))
	binary.NativeEndian.PutUint32(req[4:], uint32(d.index)) // ifi_index
	_, err = d.rtnl.Execute(netlink.Message{
		Header: netlink.Header{Type: unix.RTM_NEWLINK, Flags: netlink.Request | netlink.Acknowledge},
		Data:   append(req, attrs...),
	})
	return err
}
