export const FEEDBACK_FIELDS = 'id source title content author email sentiment status metadata publishedDate createdAt';

export const ADD_FEEDBACK = `mutation Add($apiKey: String!, $input: NewFeedbackInput!) {
  addFeedbackItem(apiKey: $apiKey, input: $input) { ${FEEDBACK_FIELDS} }
}`;

export const LIST_FEEDBACK = `query List($apiKey: String!, $skip: Int, $take: Int, $source: String, $status: String, $sentiment: String) {
  feedbackItems(apiKey: $apiKey, skip: $skip, take: $take, source: $source, status: $status, sentiment: $sentiment) {
    total
    items { ${FEEDBACK_FIELDS} }
  }
}`;

export const GET_FEEDBACK = `query Get($apiKey: String!, $id: String!) { feedbackItem(apiKey: $apiKey, id: $id) { ${FEEDBACK_FIELDS} } }`;

export const REMOVE_FEEDBACK = `mutation Remove($apiKey: String!, $id: String!) { removeFeedbackItem(apiKey: $apiKey, id: $id) }`;

export const CONTACT_FIELDS =
  'id name email phone company title location tags totalFeedbacks lastInteraction createdAt';
export const ACCOUNT_FIELDS = 'id name domain description website score churnRisk tags createdAt';

export const LIST_CONTACTS = `query Contacts($apiKey: String!, $skip: Int, $take: Int, $search: String) {
  contactItems(apiKey: $apiKey, skip: $skip, take: $take, search: $search) { total items { ${CONTACT_FIELDS} } }
}`;
export const GET_CONTACT = `query Contact($apiKey: String!, $id: String!) { contactItem(apiKey: $apiKey, id: $id) { ${CONTACT_FIELDS} } }`;

export const LIST_ACCOUNTS = `query Accounts($apiKey: String!, $skip: Int, $take: Int, $search: String) {
  accountItems(apiKey: $apiKey, skip: $skip, take: $take, search: $search) { total items { ${ACCOUNT_FIELDS} } }
}`;
export const GET_ACCOUNT = `query Account($apiKey: String!, $id: String!) { accountItem(apiKey: $apiKey, id: $id) { ${ACCOUNT_FIELDS} } }`;
