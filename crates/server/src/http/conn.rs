//! [`Capped`]: the TCP listener the server accepts on, with at most so many connections open at
//! once from one IP address. A connection over the cap is closed as soon as it is accepted,
//! before a byte is read, so one address cannot hold every socket and the memory behind them.
//! The count of an address is kept only while it has a connection open.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex as StdMutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

use crate::play::hub::lock;

type Counts = Arc<StdMutex<HashMap<IpAddr, usize>>>;

/// A listener that keeps at most `cap` connections open per address.
pub struct Capped {
    inner: TcpListener,
    cap: usize,
    counts: Counts,
}

impl Capped {
    /// `inner` with at most `cap` connections open at once per IP address (0 is read as 1).
    pub fn new(inner: TcpListener, cap: usize) -> Capped {
        Capped {
            inner,
            cap: cap.max(1),
            counts: Arc::default(),
        }
    }
}

/// An accepted connection, counted against its address until it is dropped.
pub struct CountedStream {
    tcp: TcpStream,
    _slot: Slot,
}

impl CountedStream {
    /// The TCP stream.
    pub fn tcp(&self) -> &TcpStream {
        &self.tcp
    }
}

/// One connection of an address; given back when dropped.
struct Slot {
    ip: IpAddr,
    counts: Counts,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = lock(&self.counts);
        if let Some(n) = counts.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

impl axum::serve::Listener for Capped {
    type Io = CountedStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (CountedStream, SocketAddr) {
        loop {
            // TcpListener's accept retries on its own errors (too many open files…).
            let (tcp, addr) = axum::serve::Listener::accept(&mut self.inner).await;
            let ip = addr.ip();
            let mut counts = lock(&self.counts);
            let n = counts.entry(ip).or_insert(0);
            if *n >= self.cap {
                drop(counts);
                tracing::debug!(%ip, cap = self.cap, "connection refused: too many from this address");
                drop(tcp);
                continue;
            }
            *n += 1;
            drop(counts);
            let slot = Slot {
                ip,
                counts: Arc::clone(&self.counts),
            };
            return (CountedStream { tcp, _slot: slot }, addr);
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

impl AsyncRead for CountedStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for CountedStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().tcp).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
}
