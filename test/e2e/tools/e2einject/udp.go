package main

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// listen prints "RX port=P from=ADDR payload=TEXT" for every datagram
// that reaches addr on one of the ports, until killed.
func listen(addr [4]byte, ports string) error {
	lines := make(chan string, 64)
	for _, p := range strings.Split(ports, ",") {
		port, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return fmt.Errorf("-ports: %q is not a port", p)
		}
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IP(addr[:]), Port: port})
		if err != nil {
			return err
		}
		go func() {
			buf := make([]byte, 2048)
			for {
				n, from, err := c.ReadFromUDP(buf)
				if err != nil {
					continue
				}
				lines <- fmt.Sprintf("RX port=%d from=%s payload=%q", port, from, buf[:n])
			}
		}()
	}
	fmt.Println("listening")
	for l := range lines {
		fmt.Println(l)
	}
	return nil
}

// send sends n datagrams "TAG i" to ip:port, interval apart.
func send(ip [4]byte, port int, tag string, n int, interval time.Duration) error {
	c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.IP(ip[:]), Port: port})
	if err != nil {
		return err
	}
	sent := 0
	for i := range n {
		if _, err := fmt.Fprintf(c, "%s %d", tag, i); err == nil {
			sent++
		}
		time.Sleep(interval)
	}
	fmt.Printf("SUMMARY sent=%d errors=%d\n", sent, n-sent)
	return nil
}
