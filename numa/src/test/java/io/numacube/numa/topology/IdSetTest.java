package io.numacube.numa.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.util.BitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IdSetTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0|0",
                "0-3|0-3",
                "0-3,8|0-3,8",
                "8,0-3|0-3,8",
                "0,1,2,3|0-3",
                "0-1,1-2|0-2",
                "5-5|5",
                "' 0-3 , 8 '|0-3,8",
                "'0-3\n'|0-3",
                "2,4,6|2,4,6",
                "0-1,3-4|0-1,3-4"
            })
    void parsesListAndPrintsItCanonically(String in, String printed) {
        assertEquals(printed, CpuSet.parse(in).toList());
        assertEquals(printed, NodeSet.parse(in).toList());
    }

    @Test
    void parsesEmptyAndBlankAsEmptySet() {
        assertTrue(CpuSet.parse("").isEmpty());
        assertTrue(CpuSet.parse("\n").isEmpty());
        assertTrue(NodeSet.parse("  ").isEmpty());
        assertEquals("", CpuSet.empty().toList());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "garbage",
                "0-",
                "-1",
                "3-1",
                "0,,1",
                "1-2-3",
                "0x1",
                "1.5",
                ",",
                "0-3,",
                "\u0663",
                "\uff11",
                "12345678901"
            })
    void rejectsMalformedListWithSyntaxErrorQuotingTheText(String bad) {
        NumacubeException e = assertThrows(NumacubeException.class, () -> CpuSet.parse(bad));
        assertTrue(
                e.kind() == NumacubeException.Kind.SYNTAX || e.kind() == NumacubeException.Kind.INVALID_INPUT,
                e.kind().toString());
        assertTrue(e.getMessage().contains("cpu"), e.getMessage());
    }

    @Test
    void rejectsIdsPastTheMaximumNamingTheId() {
        NumacubeException e = assertThrows(NumacubeException.class, () -> NodeSet.parse("0-4096"));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind());
        assertTrue(e.getMessage().contains("id=4096"), e.getMessage());
        assertEquals(NodeSet.MAX_NODE_ID, NodeSet.parse("0-4095").max());
        assertThrows(NumacubeException.class, () -> CpuSet.parse("99999999"));
    }

    @Test
    void acceptsTheLargestCpuRange() {
        CpuSet all = CpuSet.parse("0-" + CpuSet.MAX_CPU_ID);
        assertEquals(CpuSet.MAX_CPU_ID + 1, all.size());
        assertEquals("0-" + CpuSet.MAX_CPU_ID, all.toList());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "3|0-1",
                "ff,ffffffff|0-39",
                "00000000,00000001|0",
                "80000000,00000000|63",
                "0|''",
                "'f\n'|0-3",
                "FF|0-7",
                "00000001,00000000,00000000|64"
            })
    void parsesHexMasksMostSignificantGroupFirst(String mask, String list) {
        assertEquals(list, CpuSet.parseHexMask(mask).toList());
    }

    @Test
    void parsesTheThousandNodeMemsAllowedMask() {
        String mask = "00000000,".repeat(31) + "00000003";
        assertEquals("0-1", NodeSet.parseHexMask(mask).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"xyz", "ff,", ",ff", "123456789", "f f", "\uff11"})
    void rejectsMalformedHexMaskSayingItIsAMask(String bad) {
        NumacubeException e = assertThrows(NumacubeException.class, () -> CpuSet.parseHexMask(bad));
        assertEquals(NumacubeException.Kind.SYNTAX, e.kind());
        assertTrue(e.getMessage().contains("mask"), e.getMessage());
    }

    @Test
    void rejectsMaskBitsPastTheMaximum() {
        String mask = "1" + ",00000000".repeat(128);
        NumacubeException e = assertThrows(NumacubeException.class, () -> NodeSet.parseHexMask(mask));
        assertTrue(e.getMessage().contains("bit=4096"), e.getMessage());
    }

    @Test
    void setAlgebraFollowsMembers() {
        CpuSet a = CpuSet.parse("0-7");
        CpuSet b = CpuSet.parse("4-11");
        assertEquals("4-7", a.and(b).toList());
        assertEquals("0-11", a.or(b).toList());
        assertEquals("0-3", a.andNot(b).toList());
        assertTrue(a.intersects(b));
        assertTrue(a.containsAll(CpuSet.of(1, 2)));
        assertFalse(a.containsAll(b));
        assertEquals(CpuSet.parse("1,3"), CpuSet.of(3, 1));
        assertEquals(CpuSet.parse("1,3").hashCode(), CpuSet.of(3, 1).hashCode());
        assertFalse(a.contains(-1));
        assertEquals(-1, CpuSet.empty().max());
    }

    @Test
    void copiesDoNotShareState() {
        BitSet bits = new BitSet();
        bits.set(2);
        NodeSet n = NodeSet.fromBits(bits);
        bits.set(3);
        n.toBits().set(5);
        assertEquals("2", n.toList());
    }

    @Test
    void rejectsNegativeAndTooLargeIdsInFactories() {
        assertThrows(NumacubeException.class, () -> CpuSet.of(-1));
        assertThrows(NumacubeException.class, () -> NodeSet.of(NodeSet.MAX_NODE_ID + 1));
        BitSet big = new BitSet();
        big.set(CpuSet.MAX_CPU_ID + 1);
        assertThrows(NumacubeException.class, () -> CpuSet.fromBits(big));
    }

    @Test
    void printsSparseNodeIds() {
        assertEquals("4-7", NodeSet.of(7, 5, 4, 6).toList());
        assertEquals(4, NodeSet.parse("4-7").stream().findFirst().getAsInt());
    }
}
