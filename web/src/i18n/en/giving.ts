/** English: a member's own giving — their gifts and statements on /me/giving (features/giving). */
export const giving = {
  "giving.mine.title": "My giving",
  "giving.mine.intro":
    "Your gifts and, if you are an adult in a household, your household's. Your statement has the totals for your tax return.",
  "giving.mine.year": "Year",
  "giving.mine.empty": "No gifts recorded for {year} yet.",
  "giving.mine.totals": "Totals for {year}",
  "giving.mine.total": "Total given",
  "giving.mine.deductible": "Tax-deductible",
  "giving.mine.nonDeductible": "Not tax-deductible",
  "giving.mine.download": "Download statement (PDF)",
  "giving.mine.downloadHint": "Your giving statement for {year}.",
  "giving.mine.gifts": "Gifts in {year}",
  "giving.mine.date": "Date",
  "giving.mine.funds": "Fund",
  "giving.mine.method": "Method",
  "giving.mine.givenBy": "Given by",
  "giving.mine.amount": "Amount",
  "giving.mine.methodName":
    "{method, select, CASH {Cash} CHEQUE {Cheque} CARD {Card} BANK_TRANSFER {Bank transfer} ONLINE {Online} other {Other}}",
  "giving.mine.cheque": "Cheque {number}",
  "giving.mine.individual": "(individually)",
};
