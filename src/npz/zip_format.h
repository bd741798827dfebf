// The zip records an npz archive is made of (PKWARE APPNOTE 6.3.x), as
// Python's zipfile writes them for numpy's savez / savez_compressed. Every
// integer is little-endian; sizes are in bytes.
//
// An archive is its members, each a local header, the name, the extra
// field and the member's bytes (raw deflate or stored), then the central
// directory (one entry per member), then, when a count, size or offset
// does not fit its 16- or 32-bit field, the ZIP64 end record and its
// locator, and last the end record:
//
//   local header (30)      0 sig 50 4B 03 04 | 4 version needed u16 | 6 flags u16
//                          8 method u16 | 10 time u16 | 12 date u16 | 14 crc32 u32
//                          18 compressed u32 | 22 uncompressed u32 | 26 name length u16
//                          28 extra length u16 | 30 name | extra | data
//   central entry (46)     0 sig 50 4B 01 02 | 4 version made by u16 (u8 version,
//                          u8 system) | 6 version needed u16 | 8 flags u16
//                          10 method u16 | 12 time u16 | 14 date u16 | 16 crc32 u32
//                          20 compressed u32 | 24 uncompressed u32 | 28 name length u16
//                          30 extra length u16 | 32 comment length u16 | 34 disk u16
//                          36 internal attributes u16 | 38 external attributes u32
//                          42 local header offset u32 | 46 name | extra | comment
//   ZIP64 end record (56)  0 sig 50 4B 06 06 | 4 size of the rest u64 (44)
//                          12 version made by u16 | 14 version needed u16 | 16 disk u32
//                          20 central directory's disk u32 | 24 entries on this disk u64
//                          32 entries u64 | 40 central directory size u64
//                          48 central directory offset u64
//   ZIP64 locator (20)     0 sig 50 4B 06 07 | 4 ZIP64 end record's disk u32
//                          8 ZIP64 end record offset u64 | 16 disks u32
//   end record (22)        0 sig 50 4B 05 06 | 4 disk u16 | 6 central directory's disk u16
//                          8 entries on this disk u16 | 10 entries u16
//                          12 central directory size u32 | 16 central directory offset u32
//                          20 comment length u16 | 22 comment
//
// The ZIP64 extra field (id 0x0001) holds, in this order, the uncompressed
// size, the compressed size, the local header offset (u64 each) and the disk
// (u32), each present only when its field in the header reads all ones
// (0xFFFFFFFF, or 0xFFFF for the disk). In a local header it holds both
// sizes whenever ZIP64 is used there.
#pragma once

#include <cstdint>

namespace manaka::npz {

constexpr uint32_t LOCAL_HEADER_SIG = 0x04034b50;
constexpr uint32_t CENTRAL_ENTRY_SIG = 0x02014b50;
constexpr uint32_t ZIP64_END_SIG = 0x06064b50;
constexpr uint32_t ZIP64_LOCATOR_SIG = 0x07064b50;
constexpr uint32_t END_SIG = 0x06054b50;

constexpr uint64_t LOCAL_HEADER_SIZE = 30;
constexpr uint64_t CENTRAL_ENTRY_SIZE = 46;
constexpr uint64_t ZIP64_END_SIZE = 56;
constexpr uint64_t ZIP64_LOCATOR_SIZE = 20;
constexpr uint64_t END_SIZE = 22;
constexpr uint64_t MAX_COMMENT = 0xFFFF;

constexpr uint16_t ZIP64_EXTRA_ID = 0x0001;
constexpr uint16_t ZIP64_LOCAL_EXTRA_SIZE = 16;  // both sizes

constexpr uint16_t METHOD_STORED = 0;
constexpr uint16_t METHOD_DEFLATED = 8;

constexpr uint16_t FLAG_ENCRYPTED = 0x0001;
constexpr uint16_t FLAG_DATA_DESCRIPTOR = 0x0008;  // sizes and crc after the data
constexpr uint16_t FLAG_UTF8 = 0x0800;             // the name is UTF-8

constexpr uint16_t VERSION_ZIP64 = 45;  // 4.5, what zipfile writes with ZIP64
constexpr uint8_t SYSTEM_UNIX = 3;
// The date zipfile gives a member written through ZipFile.open(name, "w"):
// 1980-01-01 00:00:00, i.e. time 0 and date (0 << 9) | (1 << 5) | 1.
constexpr uint16_t DOS_TIME_1980 = 0;
constexpr uint16_t DOS_DATE_1980 = 0x0021;
// "?rw-------": zipfile's external attributes for such a member.
constexpr uint32_t EXTERNAL_ATTR_RW = 0600u << 16;

// All ones: "the value is in the ZIP64 extra field / ZIP64 end record".
constexpr uint32_t U32_IN_ZIP64 = 0xFFFFFFFF;
constexpr uint16_t U16_IN_ZIP64 = 0xFFFF;
// zipfile's thresholds for using ZIP64 in the central directory and the end
// record (ZIP64_LIMIT, ZIP_FILECOUNT_LIMIT): a size or offset above 2^31 - 1,
// more than 65535 entries.
constexpr uint64_t ZIPFILE_ZIP64_LIMIT = (uint64_t{1} << 31) - 1;
constexpr uint64_t ZIPFILE_COUNT_LIMIT = 0xFFFF;

// Deflate cannot expand more than 1032 to 1 (a 258-byte match in two bits);
// an entry that claims more is refused before anything is allocated.
constexpr uint64_t DEFLATE_MAX_RATIO = 1032;

}  // namespace manaka::npz
