//! Structures a process would otherwise work out again at every open, kept in a file
//! beside the table they serve: the move tables of enumerated coordinates, the classes
//! free moves join, the steps listed per state. They are derived from the table's inputs
//! alone, so the first process that makes one writes it (atomically, checksummed like
//! every table file) and later ones read it back instead: Square-1's first scramble in a
//! fresh process went from 0.19 s to under 0.1 s this way (docs/phases.md).
//!
//! Such a file is never trusted blindly: its header must carry the parameters the caller
//! gives (the derivation's format among them, so a file an earlier version wrote is not
//! read as this one's), its checksum must hold, it must decode, and the caller checks
//! what it decoded. A file that fails any of these is named in a note and made again.

use super::{read_header, TableSpec, TableStore};
use crate::progress::Progress;
use serde::{de::DeserializeOwned, Serialize};

/// The version of every derived structure's layout and meaning; a change to any of them
/// moves it on, and files of another version are made again.
pub const DERIVED_FORMAT: u64 = 2;

/// Most bytes a derived file may claim to decode into.
const DECODE_LIMIT: usize = 1 << 31;

fn config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_limit::<DECODE_LIMIT>()
}

/// One derived file: `{table}-{suffix}.cdb` beside the table `table`, for contents that
/// depend on `key` (a hash of whatever else they depend on) as well as on the table's
/// own parameters.
pub struct DerivedFile<'a> {
    store: &'a TableStore,
    /// Its spec, but for the length (`entries`), which is the payload's.
    spec: TableSpec,
    path: std::path::PathBuf,
}

impl<'a> DerivedFile<'a> {
    /// The file `{table}-{suffix}` of `store` for `key`.
    pub fn beside(store: &'a TableStore, table: &TableSpec, suffix: &str, key: u64) -> Self {
        let mut params = table.params.clone();
        params.push(("derived format".into(), DERIVED_FORMAT));
        params.push(("derived from".into(), key));
        let spec = TableSpec {
            name: super::intern(format!("{}-{suffix}", table.name)),
            group: table.group,
            puzzle: table.puzzle,
            kind: "derived structures",
            params,
            entries: 0,
            bits_per_entry: 8,
        };
        let path = store.dir().join(spec.file_name());
        Self { store, spec, path }
    }

    /// Its spec for a payload of `bytes` bytes.
    fn spec_of(&self, bytes: u64) -> TableSpec {
        TableSpec {
            entries: bytes,
            ..self.spec.clone()
        }
    }

    /// The structure kept there if the file is there, sound, and accepted by `sound`;
    /// else `make()`, kept there for the next process ([`DerivedFile::keep`]). `None`
    /// when there is none to keep and `make` gives none.
    pub fn load_or_make<T: Serialize + DeserializeOwned>(
        &self,
        progress: &Progress,
        sound: impl Fn(&T) -> bool,
        make: impl FnOnce() -> Option<T>,
    ) -> Option<T> {
        if let Some(value) = self.load(progress, sound) {
            return Some(value);
        }
        let value = make()?;
        self.keep(progress, &value);
        Some(value)
    }

    /// The structure kept there, if the file is there, sound, and accepted by `sound`; a
    /// file that is there but fails is named in a note.
    pub fn load<T: DeserializeOwned>(
        &self,
        progress: &Progress,
        sound: impl Fn(&T) -> bool,
    ) -> Option<T> {
        if !self.path.is_file() {
            return None;
        }
        match self.read(sound) {
            Ok(value) => Some(value),
            Err(why) => {
                progress.note(format!("{}: {why}; made again", self.path.display()));
                None
            }
        }
    }

    /// Writes `value` there (replacing any file by a rename) when the folder is
    /// writable; a write that fails is named in a note.
    pub fn keep<T: Serialize>(&self, progress: &Progress, value: &T) {
        if self.store.check_writable().is_err() {
            return;
        }
        if let Ok(bytes) = bincode::serde::encode_to_vec(value, config()) {
            let spec = self.spec_of(bytes.len() as u64);
            if let Err(e) = self.store.write(&spec, &bytes, Vec::new()) {
                progress.note(format!("{}: not kept ({e})", self.path.display()));
            }
        }
    }

    fn read<T: DeserializeOwned>(&self, sound: impl Fn(&T) -> bool) -> Result<T, String> {
        let (header, _) = read_header(&self.path, self.spec.group).map_err(|e| e.to_string())?;
        if header.params != self.spec.params {
            return Err("made by another version of cubedb or for other inputs".into());
        }
        let file = self
            .store
            .open(&self.spec_of(header.entries))
            .map_err(|e| e.to_string())?;
        let (value, used): (T, usize) = bincode::serde::decode_from_slice(file.payload(), config())
            .map_err(|e| format!("does not decode ({e})"))?;
        if used != file.payload().len() {
            return Err(format!(
                "{} bytes after its contents",
                file.payload().len() - used
            ));
        }
        if !sound(&value) {
            return Err("its contents do not fit the table".into());
        }
        Ok(value)
    }
}

/// Serde for a `Vec<u32>` kept as its little-endian bytes: read back in one pass over the
/// file's bytes rather than word by word (`#[serde(with = "words")]`).
pub mod words {
    use serde::{de, Deserializer, Serializer};

    /// The words as one run of little-endian bytes.
    pub fn serialize<S: Serializer>(words: &[u32], s: S) -> Result<S::Ok, S::Error> {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        s.serialize_bytes(&bytes)
    }

    /// The words back from their bytes (an error when the length is not whole words).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
        d.deserialize_bytes(WordsVisitor)
    }

    pub(super) struct WordsVisitor;

    impl de::Visitor<'_> for WordsVisitor {
        type Value = Vec<u32>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("little-endian 32-bit words")
        }

        fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Vec<u32>, E> {
            if !bytes.len().is_multiple_of(4) {
                return Err(E::invalid_length(bytes.len(), &self));
            }
            Ok(bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect())
        }
    }
}

/// Serde for a `Vec<u8>` kept as one run of bytes (`#[serde(with = "bytes")]`), read back
/// in one copy rather than byte by byte.
pub mod bytes {
    use serde::{de, Deserializer, Serializer};

    /// The bytes as one run.
    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(bytes)
    }

    /// The bytes back.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct BytesVisitor;
        impl de::Visitor<'_> for BytesVisitor {
            type Value = Vec<u8>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }

            fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Vec<u8>, E> {
                Ok(bytes.to_vec())
            }
        }
        d.deserialize_bytes(BytesVisitor)
    }
}

/// [`words`] for a list of word vectors.
pub mod word_lists {
    use serde::ser::SerializeSeq;
    use serde::{de, Deserializer, Serializer};

    struct Words<'a>(&'a [u32]);

    impl serde::Serialize for Words<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            super::words::serialize(self.0, s)
        }
    }

    struct OwnedWords(Vec<u32>);

    impl<'de> serde::Deserialize<'de> for OwnedWords {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            super::words::deserialize(d).map(OwnedWords)
        }
    }

    /// Each list as one run of bytes.
    pub fn serialize<S: Serializer>(lists: &[Vec<u32>], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(lists.len()))?;
        for list in lists {
            seq.serialize_element(&Words(list))?;
        }
        seq.end()
    }

    /// The lists back from their bytes.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u32>>, D::Error> {
        struct ListsVisitor;
        impl<'de> de::Visitor<'de> for ListsVisitor {
            type Value = Vec<Vec<u32>>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("lists of little-endian 32-bit words")
            }

            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut lists = Vec::new();
                while let Some(OwnedWords(list)) = seq.next_element()? {
                    lists.push(list);
                }
                Ok(lists)
            }
        }
        d.deserialize_seq(ListsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::TableStore;

    fn anchor() -> TableSpec {
        TableSpec {
            name: "derived-test",
            group: "test",
            puzzle: "test",
            kind: "test",
            params: vec![("p".into(), 1)],
            entries: 0,
            bits_per_entry: 8,
        }
    }

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Kept {
        #[serde(with = "words")]
        words: Vec<u32>,
        #[serde(with = "word_lists")]
        lists: Vec<Vec<u32>>,
        other: u8,
    }

    fn value() -> Kept {
        Kept {
            words: (0..1000).map(|i| i * 7919).collect(),
            lists: vec![vec![1, 2, 3], vec![], vec![u32::MAX]],
            other: 9,
        }
    }

    /// Made once and kept; read back (not made) by the next open; made again when the
    /// file is damaged, was made for another key, or its contents are refused.
    #[test]
    fn derived_files_are_kept_read_back_and_never_trusted_when_wrong() {
        let dir = std::env::temp_dir().join(format!("cubedb-derived-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("folder");
        let store = TableStore::new(&dir);
        let notes = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
        let sink = notes.clone();
        let progress = Progress::notes_to(move |n| sink.lock().expect("notes").push(n.into()));
        let made = std::cell::Cell::new(0);
        let open = |key: u64, sound: &dyn Fn(&Kept) -> bool| {
            DerivedFile::beside(&store, &anchor(), "x", key).load_or_make(&progress, sound, || {
                made.set(made.get() + 1);
                Some(value())
            })
        };
        let yes = |_: &Kept| true;
        let last_note_says = |text: &str| {
            let notes = notes.lock().expect("notes");
            notes.last().is_some_and(|n| n.contains(text))
        };
        assert_eq!(open(5, &yes), Some(value()));
        assert_eq!(made.get(), 1);
        assert_eq!(open(5, &yes), Some(value()));
        assert_eq!(made.get(), 1, "read back, not made");
        assert!(notes.lock().expect("notes").is_empty());

        // Another key: named, made again (and kept for that key).
        assert_eq!(open(6, &yes), Some(value()));
        assert_eq!(made.get(), 2);
        assert!(last_note_says("other inputs"));

        // A byte of the payload changed: the checksum fails, named, made again.
        let path = dir.join("derived-test-x.cdb");
        let mut bytes = std::fs::read(&path).expect("file");
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(&path, &bytes).expect("damaged");
        assert_eq!(open(6, &yes), Some(value()));
        assert_eq!(made.get(), 3);
        assert!(last_note_says("derived-test-x.cdb"));

        // Contents the caller refuses: made again.
        assert_eq!(open(6, &|k: &Kept| k.other == 0), Some(value()));
        assert_eq!(made.get(), 4);
        assert!(last_note_says("do not fit"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
