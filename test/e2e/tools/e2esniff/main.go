// Command e2esniff is the e2e harness's air sniffer: it reads mac80211_hwsim's
// global monitor (hwsim0, every frame any simulated radio transmits, with a
// radiotap header) and prints the frames the power-save, hidden-SSID and
// admission scenarios reason about, one line each, prefixed with the VM's
// uptime in seconds:
//
//	12.345 beacon bssid=02:00:00:00:00:00 ssid_len=0 ssid_hidden=1 dtim_count=0 dtim_period=2 mcast=0 aids=1,2
//	12.350 null from=02:00:00:00:01:00 to=02:00:00:00:00:00 pm=1
//	12.360 pspoll from=02:00:00:00:01:00 aid=1
//	12.361 data from=02:00:00:00:00:00 to=02:00:00:00:01:00 pm=0 more_data=1 len=98
//
// Beacons are printed only when their TIM lists an AID, their SSID element is
// hidden, or every -beacon-every beacon. Data frames are printed when they
// carry More Data or the PM bit, or when -data is set. SIGTERM or SIGINT
// prints a SUMMARY line of counters and exits.
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
)

type sniffer struct {
	mu    sync.Mutex
	out   *bufio.Writer
	t0    float64
	start time.Time
	cnt   map[string]uint64
	sta   map[string]bool // only these station MACs for data/null/pspoll (empty: all)
	data  bool
	every uint64
}

func (s *sniffer) now() string {
	return strconv.FormatFloat(s.t0+time.Since(s.start).Seconds(), 'f', 3, 64)
}

func (s *sniffer) emit(format string, args ...any) {
	fmt.Fprintf(s.out, "%s %s\n", s.now(), fmt.Sprintf(format, args...))
	s.out.Flush()
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
		if null || pm == 1 || more == 1 || s.data {
			s.emit("%s from=%s to=%s pm=%d more_data=%d len=%d", dir, a2, a1, pm, more, len(f))
		}
	}
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

func uptime() float64 {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	return f
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

func main() {
	ifname := flag.String("i", "hwsim0", "monitor interface to read")
	stas := flag.String("sta", "", "comma-separated station MACs: data, null and PS-Poll frames only for these")
	data := flag.Bool("data", false, "print every data frame (not only PM / More Data ones)")
	every := flag.Uint64("beacon-every", 0, "also print every Nth beacon (0: never)")
	flag.Parse()

	s := &sniffer{out: bufio.NewWriter(os.Stdout), t0: uptime(), start: time.Now(),
		cnt: map[string]uint64{}, sta: map[string]bool{}, data: *data, every: *every}
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
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-sig
		s.mu.Lock()
		s.summary()
		os.Exit(0)
	}()
	s.mu.Lock()
	s.emit("listening on %s (ifindex %d)", *ifname, ifi.Index)
	s.mu.Unlock()
	buf := make([]byte, 65536)
	for {
		n, _, err := syscall.Recvfrom(fd, buf, 0)
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
		s.frame(buf[rtlen:n])
		s.mu.Unlock()
	}
}
