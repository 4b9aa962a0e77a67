package inject

import (
	"encoding/binary"

	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"
)

// ifRxPackets asks rtnetlink for an interface's rx_packets (the first
// counter of IFLA_STATS64, struct rtnl_link_stats64, in host order). It
// works in any network namespace, where sysfs may show another one's
// interfaces. A connection per call: the shell asks once a second.
func ifRxPackets(index int) (uint64, bool) {
	c, err := netlink.Dial(unix.NETLINK_ROUTE, nil)
	if err != nil {
		return 0, false
	}
	defer c.Close()
	info := make([]byte, unix.SizeofIfInfomsg)
	binary.NativeEndian.PutUint32(info[4:], uint32(index))
	msgs, err := c.Execute(netlink.Message{
		Header: netlink.Header{Type: unix.RTM_GETLINK, Flags: netlink.Request},
		Data:   info,
	})
	if err != nil || len(msgs) != 1 || len(msgs[0].Data) < unix.SizeofIfInfomsg {
		return 0, false
	}
	ad, err := netlink.NewAttributeDecoder(msgs[0].Data[unix.SizeofIfInfomsg:])
	if err != nil {
		return 0, false
	}
	for ad.Next() {
		if ad.Type() == unix.IFLA_STATS64 {
			if b := ad.Bytes(); len(b) >= 8 {
				return binary.NativeEndian.Uint64(b), true
			}
		}
	}
	return 0, false
}
