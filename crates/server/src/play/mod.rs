//! The only code that locks a game and commits its changes: the games in memory and what they
//! share ([`hub::Play`], [`live`]), a move or another change judged, committed, *then*
//! published ([`submit`]), the events with their audience ([`event`]) and how a game is shown
//! ([`view`]), challenges ([`challenges`]), consultation's
//! proposals ([`consult`]), the chat ([`chat`]), the accounts of
//! programs ([`accounts`]), the events a director hosts ([`events`]), a move taken back by agreement ([`undo`]), accounts and sessions ([`sessions`]), and the PostgreSQL relay between servers ([`relay`], [`listen`]).
//! Nothing here knows HTTP.

pub mod accounts;
pub mod challenges;
pub mod chat;
pub mod consult;
pub mod event;
pub mod events;
pub mod hub;
pub mod listen;
pub mod live;
pub mod load;
pub mod relay;
pub mod sessions;
pub mod submit;
pub mod undo;
pub mod view;
