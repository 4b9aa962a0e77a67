// Command e2esniff is the e2e harness's air sniffer: it reads mac80211_hwsim's
// global monitor (hwsim0, every frame any simulated radio transmits, with a
// radiotap header) and prints the frames the power-save, hidden-SSID and
// admission scenarios reason about, one line each, prefixed with the VM's
// uptime in seconds:
//
//	12.345 beacon bssid=02:00:00:00:00:00 ssid_len=0 ssid_hidden=1 dtim_count=0 dtim_period=2 mcast=0 aids=1,2
//	12.350 null from=02:00:00:00:01:00 to=02:00:00:00:00:00 pm=1
//	12.360 pspoll from=02:00:00:00:01:00 aid=1
//	12.361 data from=02:00:00:00:00:00 to=02:00:00:00:01:00 pm=0 more_data=1 amsdu=0 len=98
//	12.400 rate data_down from=02:00:00:00:00:00 to=02:00:00:00:01:00 enc=ht mcs=7 bw=20 sgi amsdu=1 len=3120
//	12.410 addba_resp from=02:00:00:00:00:00 to=02:00:00:00:01:00 token=1 status=37 tid=0
//
// Beacons are printed only when their TIM lists an AID, their SSID element is
// hidden, or every -beacon-every beacon. Data frames are printed when they
// carry More Data or the PM bit, or when -data is set. -rates prints every
// data frame with the rate in its radiotap header (HT MCS, VHT) and the
// A-MSDU bit of its QoS control; Block Ack action frames (ADDBA, DELBA) are always
// printed. SIGTERM or SIGINT prints a SUMMARY line of counters and exits.
//
// Each line's time is the kernel's receive timestamp of the frame
// (SO_TIMESTAMPNS), taken when hwsim0 got it, as the radio sent it, not when
// e2esniff read it: on a starved CPU the sniffer reads late and in bursts,
// and a time of reading would show gaps the air did not have. The socket's
// buffer is raised (SO_RCVBUFFORCE) so that a starved sniffer falls behind
// rather than losing frames; frames the kernel still dropped for it are
// printed each second they occur (PACKET_STATISTICS), for example
//
//	14.021 drops n=12 packets=3310
//
// and summed in SUMMARY's drops=: a check that counts frames on the air
// must see none in its window.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

type sniffer struct {
	mu  sync.Mutex
	out *bufio.Writer
	// at is the current line's time, seconds since boot: the frame's
	// receive timestamp, or the time of reading for other lines
	at float64
	// boot is CLOCK_BOOTTIME less CLOCK_REALTIME, the clock of the
	// kernel's receive timestamps
	boot  time.Duration
	cnt   map[string]uint64
	sta   map[string]bool // only these station MACs for data/null/pspoll (empty: all)
	data  bool
	every uint64
	rates bool // print the receive rate of data frames (from the radiotap header)
	rt    rtInfo
}

func (s *sniffer) emit(format string, args ...any) {
	fmt.Fprintf(s.out, "%s %s\n", strconv.FormatFloat(s.at, 'f', 3, 64), fmt.Sprintf(format, args...))
	s.out.Flush()
}

// clock reads a clock_gettime(2) clock.
func clock(id int) time.Duration {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(id), uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

const (
	clockRealtime = 0
	clockBoottime = 7
)

// uptime is seconds since boot, /proc/uptime's clock.
func uptime() float64 { return clock(clockBoottime).Seconds() }

// stamp is a received frame's kernel timestamp in seconds since boot, or
// the time of reading when the control message has none.
func (s *sniffer) stamp(oob []byte) float64 {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err == nil {
		for _, m := range msgs {
			if m.Header.Level == syscall.SOL_SOCKET && m.Header.Type == syscall.SO_TIMESTAMPNS && len(m.Data) >= 16 {
				ts := (*syscall.Timespec)(unsafe.Pointer(&m.Data[0]))
				return (time.Duration(ts.Nano()) + s.boot).Seconds()
			}
		}
	}
	s.cnt["no_timestamp"]++
	return uptime()
}

// packetStats reads and resets the socket's PACKET_STATISTICS: frames
// received and frames dropped for want of room since the last call.
func packetStats(fd int) (packets, drops uint32, err error) {
	var st struct{ packets, drops uint32 }
	n := uint32(unsafe.Sizeof(st))
	_, _, e := syscall.Syscall6(syscall.SYS_GETSOCKOPT, uintptr(fd), solPacket, packetStatistics,
		uintptr(unsafe.Pointer(&st)), uintptr(unsafe.Pointer(&n)), 0)
	if e != 0 {
		return 0, 0, e
	}
	return st.packets, st.drops, nil
}

const (
	solPacket        = 263 // SOL_PACKET
	packetStatistics = 6   // PACKET_STATISTICS
	rcvBuf           = 32 << 20
)

// watchDrops prints, each second the kernel dropped frames for the
// socket, how many, and counts them for SUMMARY.
func (s *sniffer) watchDrops(fd int) {
	for range time.Tick(time.Second) {
		packets, drops, err := packetStats(fd)
		s.mu.Lock()
		if err != nil {
			s.at = uptime()
			s.emit("drops error=%q", err.Error())
			s.mu.Unlock()
			return
		}
		s.cnt["drops"] += uint64(drops)
		if drops > 0 {
			s.at = uptime()
			s.emit("drops n=%d packets=%d", drops, packets)
		}
		s.mu.Unlock()
	}
}

func mac(b []byte) string { return net.HardwareAddr(b).String() }

func (s *sniffer) wanted(addrs ...string) bool {
	if len(s.sta) == 0 {
		return true
	}
	for _, a := range addrs {
		if s.sta[a] {
			return true
		}
	}
	return false
}

// elements walks the information elements of a management frame body.
func elements(b []byte, fn func(id byte, v []byte)) {
	for len(b) >= 2 {
		n := int(b[1])
		if len(b) < 2+n {
			return
		}
		fn(b[0], b[2:2+n])
		b = b[2+n:]
	}
}

func (s *sniffer) frame(f []byte) {
	if len(f) < 10 {
		s.cnt["short"]++
		return
	}
	fc0, fc1 := f[0], f[1]
	typ, sub := (fc0>>2)&3, fc0>>4
	toDS, fromDS := fc1&1 != 0, fc1&2 != 0
	pm, more := (fc1>>4)&1, (fc1>>5)&1
	switch typ {
	case 0: // management
		if len(f) < 24 {
			s.cnt["short"]++
			return
		}
		da, sa, bssid := mac(f[4:10]), mac(f[10:16]), mac(f[16:22])
		body := f[24:]
		switch sub {
		case 8: // beacon
			s.cnt["beacon"]++
			if len(body) < 12 {
				return
			}
			ssidLen, hidden, tim := -1, false, ""
			var aids []int
			elements(body[12:], func(id byte, v []byte) {
				switch id {
				case 0:
					ssidLen = len(v)
					hidden = true
					for _, c := range v {
						if c != 0 {
							hidden = false
						}
					}
				case 5:
					if len(v) < 3 {
						return
					}
					off := int(v[2]&0xfe) * 8 // bitmap offset (in octets, even) as AID base
					for i, o := range v[3:] {
						for bit := 0; bit < 8; bit++ {
							if o&(1<<bit) != 0 {
								aid := off + i*8 + bit
								if aid != 0 {
									aids = append(aids, aid)
								}
							}
						}
					}
					tim = fmt.Sprintf("dtim_count=%d dtim_period=%d mcast=%d", v[0], v[1], v[2]&1)
				}
			})
			if hidden {
				s.cnt["beacon_hidden"]++
			}
			if len(aids) > 0 {
				s.cnt["beacon_tim"]++
			}
			if len(aids) > 0 || hidden && s.cnt["beacon_hidden"] == 1 || s.every > 0 && (s.cnt["beacon"]-1)%s.every == 0 {
				as := make([]string, len(aids))
				for i, a := range aids {
					as[i] = strconv.Itoa(a)
				}
				s.emit("beacon bssid=%s ssid_len=%d ssid_hidden=%d %s aids=%s len=%d", bssid, ssidLen, b2i(hidden), tim, strings.Join(as, ","), len(f))
			}
		case 4: // probe request
			s.cnt["probe_req"]++
			ssid := ""
			elements(body, func(id byte, v []byte) {
				if id == 0 {
					ssid = string(v)
				}
			})
			s.emit("probe_req from=%s to=%s ssid=%q", sa, da, ssid)
		case 5: // probe response
			s.cnt["probe_resp"]++
			ssid := ""
			if len(body) >= 12 {
				elements(body[12:], func(id byte, v []byte) {
					if id == 0 {
						ssid = string(v)
					}
				})
			}
			s.emit("probe_resp from=%s to=%s ssid=%q", sa, da, ssid)
		case 11: // authentication
			s.cnt["auth"]++
			if len(body) >= 6 {
				s.emit("auth from=%s to=%s alg=%d seq=%d status=%d", sa, da, le16(body[0:]), le16(body[2:]), le16(body[4:]))
			}
		case 0, 2: // (re)association request
			s.cnt["assoc_req"]++
			s.emit("assoc_req from=%s to=%s reassoc=%d", sa, da, b2i(sub == 2))
		case 1, 3: // (re)association response
			s.cnt["assoc_resp"]++
			if len(body) >= 6 {
				s.emit("assoc_resp from=%s to=%s status=%d aid=%d", sa, da, le16(body[2:]), le16(body[4:])&0x3fff)
			}
		case 10, 12: // disassociation, deauthentication
			k := map[byte]string{10: "disassoc", 12: "deauth"}[sub]
			s.cnt[k]++
			if len(body) >= 2 {
				s.emit("%s from=%s to=%s reason=%d", k, sa, da, le16(body))
			}
		case 13: // action
			s.cnt["action"]++
			s.action(sa, da, body)
		}
	case 1: // control
		if sub == 10 && len(f) >= 16 { // PS-Poll
			from := mac(f[10:16])
			if s.wanted(from) {
				s.cnt["pspoll"]++
				s.emit("pspoll from=%s bssid=%s aid=%d", from, mac(f[4:10]), le16(f[2:])&0x3fff)
			}
		}
	case 2: // data
		if len(f) < 24 {
			s.cnt["short"]++
			return
		}
		a1, a2 := mac(f[4:10]), mac(f[10:16])
		if !s.wanted(a1, a2) {
			return
		}
		null := sub&4 != 0 // Null, QoS Null (no payload)
		dir := "data"
		if null {
			dir = "null"
		}
		key := dir
		switch {
		case toDS && !fromDS:
			key += "_up"
		case fromDS && !toDS:
			key += "_down"
		}
		s.cnt[key]++
		if pm == 1 {
			s.cnt[key+"_pm"]++
		}
		if more == 1 {
			s.cnt[key+"_more_data"]++
		}
		amsdu := 0
		if sub&8 != 0 && len(f) >= 26 { // QoS data: QoS control after the 24-byte header (no 4-address frames here)
			amsdu = int(f[24]>>7) & 1
		}
		if amsdu == 1 {
			s.cnt[key+"_amsdu"]++
		}
		if null || pm == 1 || more == 1 || s.data {
			s.emit("%s from=%s to=%s pm=%d more_data=%d amsdu=%d len=%d", dir, a2, a1, pm, more, amsdu, len(f))
		}
		if s.rates && !null {
			s.cnt[fmt.Sprintf("rate_%s[%s amsdu=%d]", key, s.rt, amsdu)]++
			s.emit("rate %s from=%s to=%s %s amsdu=%d len=%d", key, a2, a1, s.rt, amsdu, len(f))
		}
	}
}

// action logs Block Ack action frames (ADDBA request/response, DELBA); other
// categories only as "action cat=N act=M".
func (s *sniffer) action(sa, da string, body []byte) {
	if len(body) < 2 {
		return
	}
	cat, act := body[0], body[1]
	if cat == 3 { // Block Ack
		switch {
		case act == 0 && len(body) >= 9: // ADDBA request: token, params, timeout, SSN
			s.cnt["addba_req"]++
			s.emit("addba_req from=%s to=%s token=%d tid=%d bufsize=%d", sa, da, body[2], (le16(body[3:])>>2)&15, le16(body[3:])>>6)
			return
		case act == 1 && len(body) >= 5: // ADDBA response: token, status, params, timeout
			s.cnt["addba_resp"]++
			tid := -1
			if len(body) >= 7 {
				tid = (le16(body[5:]) >> 2) & 15
			}
			s.emit("addba_resp from=%s to=%s token=%d status=%d tid=%d", sa, da, body[2], le16(body[3:]), tid)
			return
		case act == 2 && len(body) >= 6: // DELBA: params, reason
			s.cnt["delba"]++
			s.emit("delba from=%s to=%s tid=%d initiator=%d reason=%d", sa, da, le16(body[2:])>>12, (le16(body[2:])>>11)&1, le16(body[4:]))
			return
		}
	}
	s.emit("action from=%s to=%s cat=%d act=%d", sa, da, cat, act)
}

// rtInfo is the rate of a frame as its radiotap header gives it.
type rtInfo struct {
	legacy              int // 500 kb/s units (RATE field), 0 if absent
	mcs, bw, sgi        int // HT MCS field: mcs -1 if absent; bw in MHz
	vhtMCS, vhtNSS, vbw int // VHT field: vhtMCS -1 if absent
}

func (r rtInfo) String() string {
	gi := map[int]string{0: "lgi", 1: "sgi"}
	switch {
	case r.vhtMCS >= 0:
		return fmt.Sprintf("enc=vht vht_mcs=%d nss=%d bw=%d %s", r.vhtMCS, r.vhtNSS, r.vbw, gi[r.sgi])
	case r.mcs >= 0:
		return fmt.Sprintf("enc=ht mcs=%d bw=%d %s", r.mcs, r.bw, gi[r.sgi])
	case r.legacy > 0:
		return fmt.Sprintf("enc=legacy rate=%.1f", float64(r.legacy)/2)
	}
	return "enc=unknown"
}

// parseRadiotap reads the RATE, MCS and VHT fields of the first presence
// bitmap (the default radiotap namespace mac80211 writes first).
func parseRadiotap(h []byte) rtInfo {
	r := rtInfo{mcs: -1, vhtMCS: -1}
	if len(h) < 8 {
		return r
	}
	present := uint32(le16(h[4:])) | uint32(le16(h[6:]))<<16
	off := 8
	for p := present; p&(1<<31) != 0; { // skip extended bitmaps
		if off+4 > len(h) {
			return r
		}
		p = uint32(le16(h[off:])) | uint32(le16(h[off+2:]))<<16
		off += 4
	}
	// size and alignment of fields 0..21
	sizes := [...][2]int{{8, 8}, {1, 1}, {1, 1}, {4, 2}, {2, 1}, {1, 1}, {1, 1}, {2, 2}, {2, 2}, {2, 2}, {1, 1},
		{1, 1}, {1, 1}, {1, 1}, {2, 2}, {2, 2}, {1, 1}, {1, 1}, {8, 4}, {3, 1}, {8, 4}, {12, 2}}
	for bit := 0; bit < len(sizes); bit++ {
		if present&(1<<bit) == 0 {
			continue
		}
		sz, al := sizes[bit][0], sizes[bit][1]
		off = (off + al - 1) / al * al
		if off+sz > len(h) {
			return r
		}
		v := h[off : off+sz]
		switch bit {
		case 2:
			r.legacy = int(v[0])
		case 19: // known, flags, mcs
			r.mcs = int(v[2])
			r.bw = 20
			if v[1]&3 == 1 {
				r.bw = 40
			}
			r.sgi = int(v[1]>>2) & 1
		case 21: // known u16, flags u8, bandwidth u8, mcs_nss[4], coding, group, partial aid
			r.sgi = int(v[2]>>2) & 1
			switch bw := v[3] & 0x1f; {
			case bw == 0:
				r.vbw = 20
			case bw >= 1 && bw <= 3:
				r.vbw = 40
			case bw >= 4 && bw <= 10:
				r.vbw = 80
			default:
				r.vbw = 160
			}
			r.vhtMCS, r.vhtNSS = int(v[4]>>4), int(v[4]&15)
		}
		off += sz
	}
	return r
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func le16(b []byte) int { return int(b[0]) | int(b[1])<<8 }

func (s *sniffer) summary() {
	keys := make([]string, 0, len(s.cnt))
	for k := range s.cnt {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%d", k, s.cnt[k])
	}
	s.emit("SUMMARY%s", b.String())
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

func main() {
	ifname := flag.String("i", "hwsim0", "monitor interface to read")
	stas := flag.String("sta", "", "comma-separated station MACs: data, null and PS-Poll frames only for these")
	data := flag.Bool("data", false, "print every data frame (not only PM / More Data ones)")
	every := flag.Uint64("beacon-every", 0, "also print every Nth beacon (0: never)")
	rates := flag.Bool("rates", false, "print every data frame with its radiotap rate and A-MSDU bit (counted by kind in SUMMARY)")
	flag.Parse()

	s := &sniffer{out: bufio.NewWriter(os.Stdout), boot: clock(clockBoottime) - clock(clockRealtime),
		cnt: map[string]uint64{}, sta: map[string]bool{}, data: *data, every: *every, rates: *rates}
	for _, m := range strings.Split(*stas, ",") {
		if m = strings.ToLower(strings.TrimSpace(m)); m != "" {
			s.sta[m] = true
		}
	}
	ifi, err := net.InterfaceByName(*ifname)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2esniff:", err)
		os.Exit(1)
	}
	fd, err := syscall.Socket(syscall.AF_PACKET, syscall.SOCK_RAW, int(htons(syscall.ETH_P_ALL)))
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2esniff: socket:", err)
		os.Exit(1)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrLinklayer{Protocol: htons(syscall.ETH_P_ALL), Ifindex: ifi.Index}); err != nil {
		fmt.Fprintln(os.Stderr, "e2esniff: bind:", err)
		os.Exit(1)
	}
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_TIMESTAMPNS, 1); err != nil {
		fmt.Fprintln(os.Stderr, "e2esniff: SO_TIMESTAMPNS:", err)
		os.Exit(1)
	}
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUFFORCE, rcvBuf); err != nil {
		fmt.Fprintln(os.Stderr, "e2esniff: SO_RCVBUFFORCE (root only):", err)
		os.Exit(1)
	}
	packetStats(fd) // from here on
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-sig
		s.mu.Lock()
		if _, drops, err := packetStats(fd); err == nil {
			s.cnt["drops"] += uint64(drops)
		}
		s.at = uptime()
		s.summary()
		os.Exit(0)
	}()
	go s.watchDrops(fd)
	s.mu.Lock()
	s.at = uptime()
	s.emit("listening on %s (ifindex %d)", *ifname, ifi.Index)
	s.mu.Unlock()
	buf := make([]byte, 65536)
	oob := make([]byte, 64)
	for {
		n, oobn, _, _, err := syscall.Recvmsg(fd, buf, oob, 0)
		if err != nil {
			if err == syscall.EINTR {
				continue
			}
			fmt.Fprintln(os.Stderr, "e2esniff: recv:", err)
			os.Exit(1)
		}
		if n < 4 {
			continue
		}
		rtlen := le16(buf[2:])
		if rtlen > n {
			continue
		}
		s.mu.Lock()
		s.at = s.stamp(oob[:oobn])
		if s.rates {
			s.rt = parseRadiotap(buf[:rtlen])
		}
		s.frame(buf[rtlen:n])
		s.mu.Unlock()
	}
}
