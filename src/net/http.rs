//! HTTP/1.1 (hyper) over turmoil's TCP: a server loop and a one-shot GET with a
//! timeout. Each connection carries one request, as a client with no keep-alive would.

use http_body_util::{BodyExt, Empty, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use std::future::Future;
use std::rc::Rc;
use std::time::Duration;
use turmoil::net::{TcpListener, TcpStream};

/// A request as a handler sees it: the path and the `x-request-id` header.
pub struct Request {
    pub path: String,
    pub id: String,
}

/// An answer: status and text body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub body: String,
}

impl Reply {
    pub fn ok(body: impl Into<String>) -> Reply {
        Reply {
            status: 200,
            body: body.into(),
        }
    }

    pub fn error(status: u16, body: impl Into<String>) -> Reply {
        Reply {
            status,
            body: body.into(),
        }
    }
}

type Error = Box<dyn std::error::Error>;

/// Serves `handler` on `port` until the host stops. Each connection is a local task.
pub async fn serve<F, Fut>(port: u16, handler: F) -> Result<(), Error>
where
    F: Fn(Request) -> Fut + 'static,
    Fut: Future<Output = Reply> + 'static,
{
    let handler = Rc::new(handler);
    let listener = TcpListener::bind(("0.0.0.0", port)).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        let h = handler.clone();
        tokio::task::spawn_local(async move {
            let svc =
                hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                    let h = h.clone();
                    async move {
                        let id = req
                            .headers()
                            .get("x-request-id")
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or("")
                            .to_string();
                        let r = h(Request {
                            path: req.uri().path().to_string(),
                            id,
                        })
                        .await;
                        let mut resp = hyper::Response::new(Full::new(Bytes::from(r.body)));
                        *resp.status_mut() = hyper::StatusCode::from_u16(r.status)
                            .unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
                        Ok::<_, std::convert::Infallible>(resp)
                    }
                });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), svc)
                .await;
        });
    }
}

/// `GET http://{host}:{port}{path}` with `x-request-id: id`, giving up after `timeout`.
/// Errors are text: `timed out after 1.000s`, `connect: ...`.
pub async fn get(
    host: &str,
    port: u16,
    path: &str,
    id: &str,
    timeout: Duration,
) -> Result<Reply, String> {
    match tokio::time::timeout(timeout, fetch(host, port, path, id)).await {
        Ok(r) => r,
        Err(_) => Err(format!("timed out after {}", super::plan::secs(timeout))),
    }
}

async fn fetch(host: &str, port: u16, path: &str, id: &str) -> Result<Reply, String> {
    let stream = TcpStream::connect((host, port))
        .await
        .map_err(|e| format!("connect: {}", e.kind()))?;
    let (mut tx, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::task::spawn_local(conn);
    let req = hyper::Request::get(path)
        .header("host", host)
        .header("x-request-id", id)
        .body(Empty::<Bytes>::new())
        .map_err(|e| format!("request: {e}"))?;
    let resp = tx
        .send_request(req)
        .await
        .map_err(|e| format!("send: {e}"))?;
    let status = resp.status().as_u16();
    let body = resp
        .into_body()
        .collect()
        .await
        .map_err(|e| format!("body: {e}"))?
        .to_bytes();
    Ok(Reply {
        status,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}
