// Command nlrecord records the kernel's nl80211 replies to the requests the
// airq nl80211 package sends, for the package's unit tests
// (nl80211/testdata/recorded). It runs inside the e2e VM on
// mac80211_hwsim (vm/record-nl80211.sh):
//
//	nlrecord -out /tmp/logs/nlrec -phy-of wlan1
//
// Each step writes one file, <prefix>-<NN>-<name>.hex, with one netlink
// message per line in lowercase hex, netlink header included, in host byte
// order as the socket delivered it:
//
//	# comment            what the step did
//	> 2c000000...        the request sent
//	< 14040000...        a message read from the request socket, in order
//	                     (dump parts, NLMSG_DONE, NLMSG_ERROR / ACK)
//	* 48000000...        a multicast message read during the step from a
//	                     second socket joined to nl80211's config, mlme and
//	                     regulatory groups
//
// The sockets set NETLINK_EXT_ACK and NETLINK_GET_STRICT_CHK, as
// mdlayher/netlink does. The standard library only: raw syscalls.
package main

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

const (
	solNetlink          = 270
	netlinkAddMember    = 1
	netlinkExtAck       = 11
	netlinkGetStrictChk = 12

	nlmsgError = 2
	nlmsgDone  = 3

	flagRequest = 0x1
	flagMulti   = 0x2
	flagAck     = 0x4
	flagDump    = 0x300

	genlIDCtrl          = 0x10
	ctrlCmdGetFamily    = 3
	ctrlAttrFamilyID    = 1
	ctrlAttrFamilyName  = 2
	ctrlAttrMcastGroups = 7
	ctrlAttrMcastName   = 1
	ctrlAttrMcastID     = 2

	// <linux/nl80211.h>
	cmdGetWiphy          = 1
	cmdSetWiphy          = 2
	cmdGetInterface      = 5
	cmdNewInterface      = 7
	cmdDelInterface      = 8
	cmdReqSetReg         = 27
	cmdGetReg            = 31
	cmdGetSurvey         = 50
	cmdGetProtocolFeat   = 95
	attrWiphy            = 1
	attrIfindex          = 3
	attrIfname           = 4
	attrIftype           = 5
	attrMac              = 6
	attrMntrFlags        = 23
	attrRegAlpha2        = 33
	attrWiphyFreq        = 38
	attrWiphyChannelType = 39
	attrSplitWiphyDump   = 174
	attrChannelWidth     = 159
	attrCenterFreq1      = 160
	attrSocketOwner      = 204
	iftypeMonitor        = 6
	mntrFlagControl      = 3
	mntrFlagOtherBSS     = 4
	mntrFlagActive       = 6
	widthNoHT20          = 0
	width20              = 1
	width40              = 2
	width80              = 3
	chanHT20             = 1
	chanHT40Plus         = 3

	nlaFNested = 0x8000
)

type sock struct {
	fd  int
	seq uint32
}

func open(groups ...uint32) (*sock, error) {
	fd, err := syscall.Socket(syscall.AF_NETLINK, syscall.SOCK_RAW|syscall.SOCK_CLOEXEC, syscall.NETLINK_GENERIC)
	if err != nil {
		return nil, err
	}
	if err := syscall.Bind(fd, &syscall.SockaddrNetlink{Family: syscall.AF_NETLINK}); err != nil {
		return nil, err
	}
	for _, o := range []int{netlinkExtAck, netlinkGetStrictChk} {
		if err := syscall.SetsockoptInt(fd, solNetlink, o, 1); err != nil {
			return nil, fmt.Errorf("setsockopt %d: %w", o, err)
		}
	}
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1<<20); err != nil {
		return nil, err
	}
	for _, g := range groups {
		if err := syscall.SetsockoptInt(fd, solNetlink, netlinkAddMember, int(g)); err != nil {
			return nil, fmt.Errorf("join group %d: %w", g, err)
		}
	}
	return &sock{fd: fd, seq: uint32(time.Now().Unix())}, nil
}

func (s *sock) timeout(d time.Duration) {
	tv := syscall.NsecToTimeval(d.Nanoseconds())
	_ = syscall.SetsockoptTimeval(s.fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
}

// recv reads one datagram and splits it into netlink messages.
func (s *sock) recv() ([][]byte, error) {
	buf := make([]byte, 1<<20)
	n, _, err := syscall.Recvfrom(s.fd, buf, 0)
	if err != nil {
		return nil, err
	}
	buf = buf[:n]
	var out [][]byte
	for len(buf) >= 16 {
		l := int(binary.NativeEndian.Uint32(buf))
		if l < 16 || l > len(buf) {
			return out, fmt.Errorf("bad message length %d of %d", l, len(buf))
		}
		out = append(out, buf[:l])
		buf = buf[(l+3)&^3:]
	}
	return out, nil
}

// attr encodes one netlink attribute.
func attr(typ uint16, v []byte) []byte {
	b := binary.NativeEndian.AppendUint16(nil, uint16(4+len(v)))
	b = binary.NativeEndian.AppendUint16(b, typ)
	b = append(b, v...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}
func u32(typ uint16, v uint32) []byte { return attr(typ, binary.NativeEndian.AppendUint32(nil, v)) }
func str(typ uint16, v string) []byte { return attr(typ, append([]byte(v), 0)) }
func flg(typ uint16) []byte           { return attr(typ, nil) }
func nested(typ uint16, parts ...[]byte) []byte {
	var v []byte
	for _, p := range parts {
		v = append(v, p...)
	}
	return attr(typ|nlaFNested, v)
}

// message builds a generic netlink request.
func (s *sock) message(family uint16, flags uint16, cmd, version uint8, attrs ...[]byte) []byte {
	s.seq++
	var body []byte
	for _, a := range attrs {
		body = append(body, a...)
	}
	b := binary.NativeEndian.AppendUint32(nil, uint32(20+len(body)))
	b = binary.NativeEndian.AppendUint16(b, family)
	b = binary.NativeEndian.AppendUint16(b, flags)
	b = binary.NativeEndian.AppendUint32(b, s.seq)
	b = binary.NativeEndian.AppendUint32(b, 0)
	b = append(b, cmd, version, 0, 0)
	return append(b, body...)
}

// exchange sends req and reads until the request is answered: NLMSG_DONE for
// a dump, NLMSG_ERROR (error or ACK), or the one reply of a plain request.
func (s *sock) exchange(req []byte) ([][]byte, error) {
	if err := syscall.Sendto(s.fd, req, 0, &syscall.SockaddrNetlink{Family: syscall.AF_NETLINK}); err != nil {
		return nil, err
	}
	flags := binary.NativeEndian.Uint16(req[6:])
	var out [][]byte
	for {
		msgs, err := s.recv()
		out = append(out, msgs...)
		if err != nil {
			return out, err
		}
		for _, m := range msgs {
			typ, mflags := binary.NativeEndian.Uint16(m[4:]), binary.NativeEndian.Uint16(m[6:])
			switch {
			case typ == nlmsgDone, typ == nlmsgError:
				return out, nil
			case flags&flagDump == 0 && flags&flagAck == 0 && mflags&flagMulti == 0:
				return out, nil
			}
		}
	}
}

// attrs splits an attribute stream.
func attrs(b []byte) map[uint16][]byte {
	m := make(map[uint16][]byte)
	for len(b) >= 4 {
		l := int(binary.NativeEndian.Uint16(b))
		if l < 4 || l > len(b) {
			break
		}
		m[binary.NativeEndian.Uint16(b[2:])&^nlaFNested] = b[4:l]
		if (l+3)&^3 >= len(b) {
			break
		}
		b = b[(l+3)&^3:]
	}
	return m
}

func list(b []byte) [][]byte {
	var out [][]byte
	for len(b) >= 4 {
		l := int(binary.NativeEndian.Uint16(b))
		if l < 4 || l > len(b) {
			break
		}
		out = append(out, b[4:l])
		if (l+3)&^3 >= len(b) {
			break
		}
		b = b[(l+3)&^3:]
	}
	return out
}

type recorder struct {
	prefix string
	req    *sock
	ev     *sock
	family uint16
	n      int
	failed int
}

// step performs one request and writes its file.
func (r *recorder) step(name, comment string, req []byte) [][]byte {
	r.n++
	path := fmt.Sprintf("%s-%02d-%s.hex", r.prefix, r.n, name)
	var sb strings.Builder
	for _, l := range strings.Split(comment, "\n") {
		fmt.Fprintf(&sb, "# %s\n", l)
	}
	fmt.Fprintf(&sb, "> %s\n", hex.EncodeToString(req))
	replies, err := r.req.exchange(req)
	for _, m := range replies {
		fmt.Fprintf(&sb, "< %s\n", hex.EncodeToString(m))
	}
	if err != nil {
		fmt.Fprintf(&sb, "# receive error: %v\n", err)
		r.failed++
	}
	for _, m := range r.events(300 * time.Millisecond) {
		fmt.Fprintf(&sb, "* %s\n", hex.EncodeToString(m))
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		r.failed++
	}
	fmt.Printf("%s: %d replies, errno %d\n", path, len(replies), errnoOf(replies))
	return replies
}

// events drains the multicast socket until it stays quiet for d.
func (r *recorder) events(d time.Duration) [][]byte {
	r.ev.timeout(d)
	var out [][]byte
	for {
		msgs, err := r.ev.recv()
		out = append(out, msgs...)
		if err != nil {
			return out
		}
	}
}

// awaitEvents reads multicast messages until one has command cmd or d passes,
// then whatever follows within 300 ms.
func (r *recorder) awaitEvents(cmd uint8, d time.Duration) [][]byte {
	var out [][]byte
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		r.ev.timeout(time.Until(end))
		msgs, err := r.ev.recv()
		out = append(out, msgs...)
		if err != nil {
			break
		}
		for _, m := range msgs {
			if len(m) > 16 && m[16] == cmd {
				return append(out, r.events(300*time.Millisecond)...)
			}
		}
	}
	return out
}

// errno returns the error code of the last NLMSG_ERROR in msgs (0: ACK or none).
func errnoOf(msgs [][]byte) int32 {
	for _, m := range msgs {
		if binary.NativeEndian.Uint16(m[4:]) == nlmsgError && len(m) >= 20 {
			return int32(binary.NativeEndian.Uint32(m[16:]))
		}
	}
	return 0
}

// payload returns the attributes of a generic netlink message.
func payload(m []byte) []byte {
	if len(m) < 20 {
		return nil
	}
	return m[20:]
}

// ifup sets IFF_UP on name (SIOCGIFFLAGS / SIOCSIFFLAGS).
func ifup(name string) error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var ifr [40]byte
	copy(ifr[:15], name)
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCGIFFLAGS, uintptr(unsafe.Pointer(&ifr[0]))); e != 0 {
		return e
	}
	binary.NativeEndian.PutUint16(ifr[16:], binary.NativeEndian.Uint16(ifr[16:])|syscall.IFF_UP)
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&ifr[0]))); e != 0 {
		return e
	}
	return nil
}

func main() {
	prefix := flag.String("out", "nlrec", "file name prefix")
	phyOf := flag.String("phy-of", "wlan1", "create the monitor on this netdev's wiphy")
	monName := flag.String("mon", "mon0", "monitor interface name")
	flag.Parse()
	if err := run(*prefix, *phyOf, *monName); err != nil {
		fmt.Fprintln(os.Stderr, "nlrecord:", err)
		os.Exit(1)
	}
}

func run(prefix, phyOf, monName string) error {
	rs, err := open()
	if err != nil {
		return err
	}
	// The family: its id and multicast groups.
	ctl := &recorder{prefix: prefix, req: rs}
	ctl.ev, err = open()
	if err != nil {
		return err
	}
	fam := ctl.step("getfamily", "CTRL_CMD_GETFAMILY name=nl80211 (genetlink.Conn.GetFamily)",
		rs.message(genlIDCtrl, flagRequest, ctrlCmdGetFamily, 1, str(ctrlAttrFamilyName, "nl80211")))
	if len(fam) == 0 || errnoOf(fam) != 0 {
		return errors.New("no nl80211 family")
	}
	fa := attrs(payload(fam[0]))
	family := binary.NativeEndian.Uint16(fa[ctrlAttrFamilyID])
	var groups []uint32
	for _, g := range list(fa[ctrlAttrMcastGroups]) {
		ga := attrs(g)
		name := strings.TrimRight(string(ga[ctrlAttrMcastName]), "\x00")
		if name == "config" || name == "mlme" || name == "regulatory" {
			groups = append(groups, binary.NativeEndian.Uint32(ga[ctrlAttrMcastID]))
		}
	}
	ev, err := open(groups...)
	if err != nil {
		return err
	}
	r := &recorder{prefix: prefix, req: rs, ev: ev, family: family, n: ctl.n}
	msg := func(flags uint16, cmd uint8, a ...[]byte) []byte {
		return rs.message(family, flagRequest|flags, cmd, 0, a...)
	}

	r.step("get-protocol-features", "NL80211_CMD_GET_PROTOCOL_FEATURES (not sent by airq; for reference)",
		msg(0, cmdGetProtocolFeat))
	wiphys := r.step("get-wiphy-split-dump", "NL80211_CMD_GET_WIPHY dump with SPLIT_WIPHY_DUMP (Conn.PHYs), world domain",
		msg(flagDump, cmdGetWiphy, flg(attrSplitWiphyDump)))
	_ = wiphys
	ifs := r.step("get-interface-dump", "NL80211_CMD_GET_INTERFACE dump (Conn.Interfaces)", msg(flagDump, cmdGetInterface))
	phy := uint32(1 << 31)
	for _, m := range ifs {
		a := attrs(payload(m))
		if strings.TrimRight(string(a[attrIfname]), "\x00") == phyOf && len(a[attrWiphy]) == 4 {
			phy = binary.NativeEndian.Uint32(a[attrWiphy])
		}
	}
	if phy == 1<<31 {
		return fmt.Errorf("no interface %s in the dump", phyOf)
	}
	r.step("get-wiphy-split-dump-filtered", fmt.Sprintf("NL80211_CMD_GET_WIPHY dump with SPLIT_WIPHY_DUMP and WIPHY=%d (a filtered split dump)", phy),
		msg(flagDump, cmdGetWiphy, flg(attrSplitWiphyDump), u32(attrWiphy, phy)))

	mac := []byte{0x02, 0x00, 0x00, 0xaa, 0x00, 0x01}
	created := r.step("new-interface-monitor", fmt.Sprintf("NL80211_CMD_NEW_INTERFACE wiphy=%d %s monitor flags CONTROL|OTHER_BSS|ACTIVE mac=02:00:00:aa:00:01 SOCKET_OWNER (Conn.NewMonitor)", phy, monName),
		msg(0, cmdNewInterface, u32(attrWiphy, phy), str(attrIfname, monName), u32(attrIftype, iftypeMonitor),
			attr(attrMac, mac), nested(attrMntrFlags, flg(mntrFlagControl), flg(mntrFlagOtherBSS), flg(mntrFlagActive)),
			flg(attrSocketOwner)))
	if len(created) == 0 || errnoOf(created) != 0 {
		return errors.New("NEW_INTERFACE failed")
	}
	mon := binary.NativeEndian.Uint32(attrs(payload(created[0]))[attrIfindex])
	if err := ifup(monName); err != nil {
		return fmt.Errorf("bring %s up: %w", monName, err)
	}
	chdef := func(freq, width, c1 uint32, ctype int) [][]byte {
		a := [][]byte{u32(attrIfindex, mon), u32(attrWiphyFreq, freq), u32(attrChannelWidth, width), u32(attrCenterFreq1, c1)}
		if ctype >= 0 {
			a = append(a, u32(attrWiphyChannelType, uint32(ctype)))
		}
		return a
	}
	r.step("set-channel-2412-ht20", fmt.Sprintf("NL80211_CMD_SET_WIPHY ifindex=%d (%s, up) 2412 MHz width 20 center1 2412 channel type HT20, ACK requested (Conn.SetChannel)", mon, monName),
		msg(flagAck, cmdSetWiphy, chdef(2412, width20, 2412, chanHT20)...))
	r.step("get-interface-dump-monitor", fmt.Sprintf("NL80211_CMD_GET_INTERFACE dump with %s up on 2412 MHz", monName), msg(flagDump, cmdGetInterface))
	r.step("get-survey-dump", fmt.Sprintf("NL80211_CMD_GET_SURVEY dump ifindex=%d (Conn.Survey)", mon), msg(flagDump, cmdGetSurvey, u32(attrIfindex, mon)))
	r.step("get-reg-world", "NL80211_CMD_GET_REG, world domain (Conn.RegDomain)", msg(0, cmdGetReg))

	r.n++
	{
		req := msg(flagAck, cmdReqSetReg, str(attrRegAlpha2, "US"))
		path := fmt.Sprintf("%s-%02d-%s.hex", prefix, r.n, "req-set-reg-us")
		var sb strings.Builder
		sb.WriteString("# NL80211_CMD_REQ_SET_REG alpha2=US, ACK requested (Conn.SetCountry); '*' lines: the multicast\n# events until NL80211_CMD_REG_CHANGE, read on a socket joined to config, mlme and regulatory\n")
		fmt.Fprintf(&sb, "> %s\n", hex.EncodeToString(req))
		replies, err := rs.exchange(req)
		for _, m := range replies {
			fmt.Fprintf(&sb, "< %s\n", hex.EncodeToString(m))
		}
		if err != nil {
			fmt.Fprintf(&sb, "# receive error: %v\n", err)
			r.failed++
		}
		for _, m := range r.awaitEvents(36, 6*time.Second) { // NL80211_CMD_REG_CHANGE
			fmt.Fprintf(&sb, "* %s\n", hex.EncodeToString(m))
		}
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			return err
		}
		fmt.Printf("%s: %d replies\n", path, len(replies))
	}
	r.step("get-reg-us", "NL80211_CMD_GET_REG after REQ_SET_REG US", msg(0, cmdGetReg))
	r.step("get-wiphy-split-dump-us", "NL80211_CMD_GET_WIPHY dump with SPLIT_WIPHY_DUMP, US domain", msg(flagDump, cmdGetWiphy, flg(attrSplitWiphyDump)))
	r.step("set-channel-5180-ht40plus", "NL80211_CMD_SET_WIPHY 5180 MHz width 40 center1 5190 channel type HT40+ (US)",
		msg(flagAck, cmdSetWiphy, chdef(5180, width40, 5190, chanHT40Plus)...))
	r.step("set-channel-5180-vht80", "NL80211_CMD_SET_WIPHY 5180 MHz width 80 center1 5210 (US)",
		msg(flagAck, cmdSetWiphy, chdef(5180, width80, 5210, -1)...))
	r.step("get-interface-dump-vht80", fmt.Sprintf("NL80211_CMD_GET_INTERFACE dump with %s on 5180 MHz, 80 MHz", monName), msg(flagDump, cmdGetInterface))
	r.step("get-survey-dump-5ghz", fmt.Sprintf("NL80211_CMD_GET_SURVEY dump ifindex=%d on 5180 MHz", mon), msg(flagDump, cmdGetSurvey, u32(attrIfindex, mon)))
	r.step("set-channel-invalid", "NL80211_CMD_SET_WIPHY 5180 MHz width 80 center1 5250: not a segment containing 5180 (error with extended ack)",
		msg(flagAck, cmdSetWiphy, chdef(5180, width80, 5250, -1)...))
	r.step("set-channel-noht-2484", "NL80211_CMD_SET_WIPHY 2484 MHz width 20_NOHT channel type NO_HT: channel 14, disabled in US",
		msg(flagAck, cmdSetWiphy, chdef(2484, widthNoHT20, 2484, 0)...))
	r.step("del-interface", fmt.Sprintf("NL80211_CMD_DEL_INTERFACE ifindex=%d, ACK requested (Conn.DelInterface)", mon), msg(flagAck, cmdDelInterface, u32(attrIfindex, mon)))
	r.step("del-interface-gone", fmt.Sprintf("NL80211_CMD_DEL_INTERFACE ifindex=%d again: the interface is gone", mon), msg(flagAck, cmdDelInterface, u32(attrIfindex, mon)))
	if r.failed > 0 {
		return fmt.Errorf("%d steps failed", r.failed)
	}
	return nil
}
