package tap

import (
	"encoding/binary"
	"fmt"

	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"
)

// Stats returns the counters since Open, with the kernel's counters of the
// interface when they can be read.
func (d *Device) Stats() Stats {
	s := Stats{
		RxFrames:     d.c.rxFrames.Load(),
		RxBytes:      d.c.rxBytes.Load(),
		RxTruncated:  d.c.rxTruncated.Load(),
		RxGSO:        d.c.rxGSO.Load(),
		RxBadOffload: d.c.rxBadOffload.Load(),
		TxFrames:     d.c.txFrames.Load(),
		TxBytes:      d.c.txBytes.Load(),
		TxErrors:     d.c.txErrors.Load(),
		TxGSO:        d.c.txGSO.Load(),
	}
	if k, err := d.ifStats.Read(d.index); err == nil {
		s.KernelTxPackets, s.KernelTxDropped = k.TxPackets, k.TxDropped
		s.KernelRxPackets, s.KernelRxDropped = k.RxPackets, k.RxDropped
	}
	return s
}

// MTU returns the interface's MTU.
func (d *Device) MTU() (int, error) {
	l, err := d.link()
	if err != nil {
		return 0, err
	}
	return l.mtu, nil
}

type linkInfo struct {
	mtu    int
	master int
}

// link asks rtnetlink for the interface. The socket was opened with the
// device, so the answer comes from the TAP's own network namespace (sysfs
// shows the namespace it was mounted in, which may be another).
func (d *Device) link() (linkInfo, error) {
	if d.closed.Load() {
		return linkInfo{}, ErrClosed
	}
	req := make([]byte, unix.SizeofIfInfomsg)
	binary.NativeEndian.PutUint32(req[4:], uint32(d.index)) // ifi_index
	msgs, err := d.rtnl.Execute(netlink.Message{
		Header: netlink.Header{Type: unix.RTM_GETLINK, Flags: netlink.Request},
		Data:   req,
	})
	if err != nil {
		return linkInfo{}, d.ioError("get link", err)
	}
	if len(msgs) != 1 || len(msgs[0].Data) < unix.SizeofIfInfomsg {
		return linkInfo{}, fmt.Errorf("tap: get link %s: unexpected reply", d.name)
	}
	return decodeLink(msgs[0].Data[unix.SizeofIfInfomsg:])
}

func decodeLink(b []byte) (linkInfo, error) {
	var l linkInfo
	ad, err := netlink.NewAttributeDecoder(b)
	if err != nil {
		return l, err
	}
	for ad.Next() {
		switch ad.Type() {
		case unix.IFLA_MTU:
			l.mtu = int(ad.Uint32())
		case unix.IFLA_MASTER:
			l.master = int(ad.Uint32())
		}
	}
	return l, ad.Err()
}
