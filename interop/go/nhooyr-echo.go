// Echo client and server on nhooyr.io/websocket (now coder/websocket; Debian's
// golang-nhooyr-websocket-dev), for wsgate's interop matrix. Built by interop/install.sh nhooyr
// (GOPATH mode against /usr/share/gocode).
//
//	nhooyr-echo client URL   dial URL once, echo every text/binary message until the close
//	nhooyr-echo server PORT  listen on 127.0.0.1:PORT, echo every message of every connection
//
// The library's defaults (permessage-deflate offered and accepted, without context takeover) but
// the read limit, raised from 32 KiB to 1 GiB as the library's own Autobahn test does (wsgate's cases
// carry messages of up to 16 MiB).
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"nhooyr.io/websocket"
)

// echo copies every message back with its type, streaming it, until the connection ends; the
// library answers pings and the close frame itself.
func echo(c *websocket.Conn) {
	defer c.Close(websocket.StatusInternalError, "")
	c.SetReadLimit(1 << 30)
	ctx := context.Background()
	for {
		kind, r, err := c.Reader(ctx)
		if err != nil {
			return
		}
		w, err := c.Writer(ctx, kind)
		if err != nil {
			return
		}
		if _, err := io.Copy(w, r); err != nil {
			return
		}
		if err := w.Close(); err != nil {
			return
		}
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: nhooyr-echo client URL | server PORT")
	os.Exit(2)
}

func main() {
	if len(os.Args) != 3 {
		usage()
	}
	switch os.Args[1] {
	case "client":
		c, _, err := websocket.Dial(context.Background(), os.Args[2], nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, "nhooyr-echo:", err)
			os.Exit(1)
		}
		echo(c)
	case "server":
		http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
			if err != nil {
				return
			}
			echo(c)
		})
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
		go func() {
			<-stop
			os.Exit(0)
		}()
		if err := http.ListenAndServe("127.0.0.1:"+os.Args[2], nil); err != nil {
			fmt.Fprintln(os.Stderr, "nhooyr-echo:", err)
			os.Exit(1)
		}
	default:
		usage()
	}
}
